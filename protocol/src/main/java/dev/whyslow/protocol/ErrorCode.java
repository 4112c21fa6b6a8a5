package dev.whyslow.protocol;

/** Why the daemon refused something. Sent in an {@link ErrorMessage}. */
public enum ErrorCode {
  MALFORMED_FRAME(1),
  FRAME_TOO_LARGE(2),
  UNSUPPORTED_VERSION(3),
  BAD_TOKEN(4),
  HANDSHAKE_REQUIRED(5),
  UNKNOWN_SITE(6),
  TOO_MANY_CONNECTIONS(7),
  INTERNAL(8),
  INVALID_MESSAGE(9);

  private final int code;

  ErrorCode(int code) {
    this.code = code;
  }

  public int code() {
    return code;
  }

  public static ErrorCode fromCode(int code) {
    for (ErrorCode value : values()) {
      if (value.code == code) {
        return value;
      }
    }
    throw new IllegalArgumentException("unknown error code " + code);
  }
}
