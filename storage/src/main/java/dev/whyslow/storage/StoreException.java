package dev.whyslow.storage;

/**
 * The store could not do what was asked for a reason outside the caller's input: an I/O error, a
 * full disk, a corrupt or foreign data directory. The message names the directory and what to do;
 * the daemon reports it and keeps serving what it can.
 */
public class StoreException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  public StoreException(String message) {
    super(message);
  }

  public StoreException(String message, Throwable cause) {
    super(message, cause);
  }
}
