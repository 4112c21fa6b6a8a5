package dev.whyslow.storage.rocksdb.internal;

import dev.whyslow.protocol.MalformedMessageException;
import dev.whyslow.storage.RunIds;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.locks.ReentrantLock;
import org.rocksdb.ColumnFamilyHandle;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;
import org.rocksdb.WriteBatch;

/**
 * Deletes old runs as the RocksDB wiki advises: first drop the SST files wholly inside the range
 * ({@code deleteFilesInRanges}, which gives the disk space back at once), then one range deletion
 * for what remains. The count of deleted runs comes from the catalog's per-minute counters; only
 * the runs of the minute holding the cutoff are read, before any file is dropped.
 */
public final class RunRetention {
  private final RocksDbHandles handles;
  private final RocksDB db;
  private final ColumnFamilyHandle runs;
  private final ColumnFamilyHandle meta;
  private final ServiceCatalog catalog;
  private final ReentrantLock writeLock;

  /** {@code writeLock} guards {@code catalog}, as in the store. */
  public RunRetention(RocksDbHandles handles, ServiceCatalog catalog, ReentrantLock writeLock) {
    this.handles = handles;
    this.db = handles.db();
    this.runs = handles.family(ColumnFamily.RUNS);
    this.meta = handles.family(ColumnFamily.META);
    this.catalog = catalog;
    this.writeLock = writeLock;
  }

  /** Deletes every run that started before {@code cutoffMillis}; returns how many. */
  public long deleteBefore(long cutoffMillis) throws RocksDBException, MalformedMessageException {
    if (cutoffMillis <= 0) {
      return 0;
    }
    boolean everything = cutoffMillis > RunIds.MAX_EPOCH_MILLIS;
    long cutoffMinute = everything ? Long.MAX_VALUE : cutoffMillis / ServiceCatalog.MINUTE_MILLIS;
    long minuteStart = everything ? 0 : cutoffMinute * ServiceCatalog.MINUTE_MILLIS;
    boolean partial = !everything && cutoffMillis > minuteStart;
    byte[] start = Keys.longKey(0);
    byte[] end = everything ? Keys.RUN_ID_END : Keys.longKey(RunIds.firstIdAt(cutoffMillis));

    Map<String, Long> partialCounts = new HashMap<>();
    long deleted;
    try {
      if (partial) {
        countPerService(minuteStart, cutoffMillis, end, partialCounts);
      }
      // Dropping files before the range deletion is written means no file holding the tombstone
      // can be dropped while older versions of its keys survive in a file only partly in range.
      // A crash between the two leaves counts too high until the next retention drops those
      // minutes, never too low.
      db.deleteFilesInRanges(runs, List.of(start, end), false);
      writeLock.lock();
      try (WriteBatch batch = new WriteBatch()) {
        batch.deleteRange(runs, start, end);
        ServiceCatalog.RetentionPlan plan =
            catalog.recordRetention(batch, meta, cutoffMinute, partial, partialCounts);
        db.write(handles.writeOptions(), batch);
        plan.apply().run();
        deleted = plan.deletedRuns();
      } finally {
        writeLock.unlock();
      }
    } finally {
      writeLock.lock();
      try {
        catalog.endRetention();
      } finally {
        writeLock.unlock();
      }
    }
    return deleted;
  }

  /**
   * Counts per service the runs of {@code [fromMillis, toMillis)}. The iterator is created under
   * the write lock together with {@link ServiceCatalog#beginRetention}, so each run is counted
   * exactly once: by this scan if it was stored before, by the catalog if after.
   */
  private void countPerService(long fromMillis, long toMillis, byte[] end, Map<String, Long> counts)
      throws RocksDBException, MalformedMessageException {
    BoundedIterator it;
    writeLock.lock();
    try {
      catalog.beginRetention(fromMillis, toMillis);
      it = BoundedIterator.over(db, runs, Keys.longKey(RunIds.firstIdAt(fromMillis)), end, false);
    } finally {
      writeLock.unlock();
    }
    try (it) {
      for (; it.isValid(); it.next()) {
        counts.merge(RunCodec.service(it.value()), 1L, Long::sum);
      }
      it.checkStatus();
    }
  }
}
