package dev.whyslow.daemon.cli;

/**
 * whyslowd refused the request or could not be reached; the message is the server's own {@code
 * error} text (or what went wrong reaching it). The CLI prints it and exits 1.
 */
final class ServerException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  ServerException(String message) {
    super(message);
  }
}
