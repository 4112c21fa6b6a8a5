package dev.whyslow.protocol;

import java.util.Objects;

/**
 * A refusal with a reason a person can act on, e.g. {@code BAD_TOKEN: token rejected for service
 * 'checkout'; set whyslow.token to the daemon's agent token}.
 *
 * @param fatal whether the daemon closes the connection after sending it
 */
public record ErrorMessage(ErrorCode code, String message, boolean fatal) implements Message {
  public ErrorMessage {
    Objects.requireNonNull(code, "code");
    Objects.requireNonNull(message, "message");
  }
}
