package dev.whyslow.storage.rocksdb.internal;

import dev.whyslow.protocol.Run;
import dev.whyslow.protocol.WireWriter;
import dev.whyslow.storage.RunIds;
import dev.whyslow.storage.RunOrigin;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.locks.ReentrantLock;
import org.rocksdb.ColumnFamilyHandle;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;
import org.rocksdb.WriteBatch;

/**
 * Stores batches of runs: encodes them without any lock, then under the write lock assigns run ids,
 * and writes the runs with the catalog's counters and the next sequence in one {@link WriteBatch}.
 */
public final class RunWriter {
  private final RocksDbHandles handles;
  private final RocksDB db;
  private final ColumnFamilyHandle runs;
  private final ColumnFamilyHandle meta;
  private final ServiceCatalog catalog;
  private final ReentrantLock writeLock;

  /** {@code writeLock} guards {@code catalog}, as in the store. */
  public RunWriter(RocksDbHandles handles, ServiceCatalog catalog, ReentrantLock writeLock) {
    this.handles = handles;
    this.db = handles.db();
    this.runs = handles.family(ColumnFamily.RUNS);
    this.meta = handles.family(ColumnFamily.META);
    this.catalog = catalog;
    this.writeLock = writeLock;
  }

  /**
   * Encodes every run before anything is written, so a run too large to encode fails the whole
   * batch with {@link IllegalArgumentException}.
   */
  public static byte[][] encode(RunOrigin origin, List<Run> batch) {
    byte[][] values = new byte[batch.size()][];
    WireWriter w = new WireWriter(512);
    for (int i = 0; i < values.length; i++) {
      Run run = batch.get(i);
      try {
        values[i] = RunCodec.encode(origin, run, w);
      } catch (IllegalStateException tooLarge) {
        throw new IllegalArgumentException(
            "run #"
                + run.sequence()
                + " from "
                + origin.service()
                + "/"
                + origin.instance()
                + " with "
                + run.sites().size()
                + " sites is too large to store ("
                + tooLarge.getMessage()
                + "). Nothing of this batch was stored.",
            tooLarge);
      }
    }
    return values;
  }

  /** Writes encoded runs atomically; returns their ids in the order given. */
  public long[] write(RunOrigin origin, long[] startMillis, byte[][] values)
      throws RocksDBException {
    long[] ids = new long[values.length];
    if (values.length == 0) {
      return ids;
    }
    writeLock.lock();
    try (WriteBatch batch = new WriteBatch()) {
      long sequence = catalog.nextSequence();
      Set<Long> taken = new HashSet<>();
      for (int i = 0; i < values.length; i++) {
        long id;
        byte[] key;
        // The sequence wraps every 2^20 runs, so an id can already belong to an older run that
        // started in the same millisecond: skip to the next free one.
        do {
          id = RunIds.of(startMillis[i], sequence++);
          key = Keys.longKey(id);
        } while (!taken.add(id) || exists(key));
        ids[i] = id;
        batch.put(runs, key, values[i]);
      }
      Runnable apply = catalog.recordRuns(batch, meta, origin, startMillis, sequence);
      db.write(handles.writeOptions(), batch);
      apply.run();
    } finally {
      writeLock.unlock();
    }
    return ids;
  }

  /** The Bloom filters answer most "no" cases without reading a block. */
  private boolean exists(byte[] key) throws RocksDBException {
    return db.keyMayExist(runs, key, null) && db.get(runs, key) != null;
  }
}
