package dev.whyslow.storage.rocksdb.internal;

import dev.whyslow.protocol.MalformedMessageException;
import dev.whyslow.storage.StoreException;
import java.nio.file.Path;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import org.rocksdb.RocksDBException;

/**
 * Runs every store call against an open database and turns engine failures into messages for
 * operators. Calls share a read lock and {@link #close} takes the write lock, so native handles are
 * never freed under a running call (RocksJava would crash the JVM) and calls after close fail
 * cleanly.
 */
public final class StoreGuard {
  /** A store operation that may fail in the engine or on a damaged record. */
  @FunctionalInterface
  public interface StoreCall<T> {
    T call() throws RocksDBException, MalformedMessageException;
  }

  private final Path dataDir;
  private final ReentrantReadWriteLock lifecycle = new ReentrantReadWriteLock();
  private boolean closed;

  public StoreGuard(Path dataDir) {
    this.dataDir = dataDir;
  }

  /** Runs {@code call}; {@code what} completes "... failed" in error messages. */
  public <T> T call(String what, StoreCall<T> call) {
    lifecycle.readLock().lock();
    try {
      if (closed) {
        throw new IllegalStateException(
            "the store in " + dataDir + " is closed; " + what + " is not possible");
      }
      return call.call();
    } catch (RocksDBException e) {
      throw new StoreException(what + " failed in " + dataDir + ": " + e.getMessage(), e);
    } catch (MalformedMessageException e) {
      throw new StoreException(
          what
              + ": a stored record in "
              + dataDir
              + " is unreadable ("
              + e.getMessage()
              + "); the data directory may be damaged, restore it from a checkpoint",
          e);
    } finally {
      lifecycle.readLock().unlock();
    }
  }

  /** Waits for running calls, then runs {@code closer} once; later calls throw. */
  public void close(Runnable closer) {
    lifecycle.writeLock().lock();
    try {
      if (!closed) {
        closed = true;
        closer.run();
      }
    } finally {
      lifecycle.writeLock().unlock();
    }
  }
}
