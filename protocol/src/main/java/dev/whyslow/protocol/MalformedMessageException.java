package dev.whyslow.protocol;

/** A frame that cannot be decoded: truncated, garbage, or with values outside their range. */
public final class MalformedMessageException extends Exception {
  private static final long serialVersionUID = 1L;

  public MalformedMessageException(String message) {
    super(message);
  }

  public MalformedMessageException(String message, Throwable cause) {
    super(message, cause);
  }
}
