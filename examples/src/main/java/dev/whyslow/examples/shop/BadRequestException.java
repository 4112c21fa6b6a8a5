package dev.whyslow.examples.shop;

/**
 * A request the shop cannot serve as sent; the message tells the caller what to change and becomes
 * the {@code error} of a 400 (or the given status) reply.
 */
final class BadRequestException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  private final int status;

  BadRequestException(String message) {
    this(400, message);
  }

  BadRequestException(int status, String message) {
    super(message);
    this.status = status;
  }

  int status() {
    return status;
  }
}
