package dev.whyslow.storage.rocksdb.internal;

import org.rocksdb.ColumnFamilyHandle;
import org.rocksdb.ReadOptions;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;
import org.rocksdb.RocksIterator;
import org.rocksdb.Slice;

/**
 * An iterator over {@code [from, toExclusive)} of one column family that owns its upper-bound
 * {@link Slice} and {@link ReadOptions}: RocksDB reads the bound from native memory while
 * iterating, so both must outlive the iterator (a collected bound crashes the JVM, rocksdb #9378).
 * Like every RocksDB iterator it reads one consistent view, the one at creation.
 */
public final class BoundedIterator implements AutoCloseable {
  private final Slice upperBound;
  private final Slice lowerBound;
  private final ReadOptions options;
  private final RocksIterator iterator;
  private final boolean reverse;

  private BoundedIterator(
      Slice upperBound,
      Slice lowerBound,
      ReadOptions options,
      RocksIterator iterator,
      boolean reverse) {
    this.upperBound = upperBound;
    this.lowerBound = lowerBound;
    this.options = options;
    this.iterator = iterator;
    this.reverse = reverse;
  }

  /**
   * Opens the iterator positioned at {@code from}. {@code fillCache} false keeps one-off bulk scans
   * (retention, relabelling) from evicting what queries need.
   */
  public static BoundedIterator over(
      RocksDB db, ColumnFamilyHandle cf, byte[] from, byte[] toExclusive, boolean fillCache) {
    Slice bound = new Slice(toExclusive);
    ReadOptions options = null;
    try {
      options = new ReadOptions().setIterateUpperBound(bound).setFillCache(fillCache);
      RocksIterator iterator = db.newIterator(cf, options);
      iterator.seek(from);
      return new BoundedIterator(bound, null, options, iterator, false);
    } catch (RuntimeException e) {
      if (options != null) {
        options.close();
      }
      bound.close();
      throw e;
    }
  }

  /**
   * Opens an iterator over the same kind of range that walks it from the last key down to {@code
   * from}: {@link #next()} moves to the previous key. Used for newest-first listings.
   */
  public static BoundedIterator reverse(
      RocksDB db, ColumnFamilyHandle cf, byte[] from, byte[] toExclusive) {
    Slice upper = new Slice(toExclusive);
    Slice lower = null;
    ReadOptions options = null;
    try {
      lower = new Slice(from);
      options = new ReadOptions().setIterateUpperBound(upper).setIterateLowerBound(lower);
      RocksIterator iterator = db.newIterator(cf, options);
      iterator.seekToLast();
      return new BoundedIterator(upper, lower, options, iterator, true);
    } catch (RuntimeException e) {
      if (options != null) {
        options.close();
      }
      if (lower != null) {
        lower.close();
      }
      upper.close();
      throw e;
    }
  }

  public boolean isValid() {
    return iterator.isValid();
  }

  public byte[] key() {
    return iterator.key();
  }

  public byte[] value() {
    return iterator.value();
  }

  /** The next key in the iteration order (the previous key for a {@link #reverse} iterator). */
  public void next() {
    if (reverse) {
      iterator.prev();
    } else {
      iterator.next();
    }
  }

  /**
   * Throws if iteration stopped because of an I/O or checksum error rather than the end of the
   * range; call after every loop, as {@code !isValid()} alone does not mean "done".
   */
  public void checkStatus() throws RocksDBException {
    iterator.status();
  }

  @Override
  public void close() {
    iterator.close();
    options.close();
    upperBound.close();
    if (lowerBound != null) {
      lowerBound.close();
    }
  }
}
