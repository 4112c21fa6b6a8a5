package dev.whyslow.daemon.cli;

/** The command line itself is wrong; the CLI prints the message and its usage, and exits 2. */
final class UsageException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  UsageException(String message) {
    super(message);
  }
}
