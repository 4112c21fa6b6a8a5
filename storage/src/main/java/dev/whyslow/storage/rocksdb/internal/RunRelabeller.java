package dev.whyslow.storage.rocksdb.internal;

import dev.whyslow.protocol.Label;
import dev.whyslow.protocol.MalformedMessageException;
import java.util.Collection;
import org.rocksdb.ColumnFamilyHandle;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;
import org.rocksdb.WriteBatch;

/**
 * Relabels runs by rewriting the label byte of their values, in batches of a few thousand so a
 * relabel of a long window neither holds everything in memory nor blocks ingest for long. Runs
 * already carrying the label are counted but not rewritten.
 */
public final class RunRelabeller {
  private static final int CHUNK = 4096;

  private final RocksDbHandles handles;
  private final RocksDB db;
  private final ColumnFamilyHandle runs;

  public RunRelabeller(RocksDbHandles handles) {
    this.handles = handles;
    this.db = handles.db();
    this.runs = handles.family(ColumnFamily.RUNS);
  }

  /** Relabels the runs with keys in {@code [from, toExclusive)} that match; returns how many. */
  public long relabelRange(byte[] from, byte[] toExclusive, RunFilter filter, Label label)
      throws RocksDBException, MalformedMessageException {
    long matched = 0;
    try (WriteBatch batch = new WriteBatch();
        BoundedIterator it = BoundedIterator.over(db, runs, from, toExclusive, false)) {
      for (; it.isValid(); it.next()) {
        byte[] value = it.value();
        if (filter.matches(value)) {
          matched++;
          rewrite(batch, it.key(), value, label);
        }
      }
      it.checkStatus();
      flush(batch);
    }
    return matched;
  }

  /** Relabels the runs with these ids, skipping unknown ones; returns how many were found. */
  public long relabelIds(Collection<Long> runIds, Label label)
      throws RocksDBException, MalformedMessageException {
    long found = 0;
    try (WriteBatch batch = new WriteBatch()) {
      for (long id : runIds) {
        if (id < 0) {
          continue; // not a run id
        }
        byte[] key = Keys.longKey(id);
        byte[] value = db.get(runs, key);
        if (value != null) {
          found++;
          rewrite(batch, key, value, label);
        }
      }
      flush(batch);
    }
    return found;
  }

  private void rewrite(WriteBatch batch, byte[] key, byte[] value, Label label)
      throws RocksDBException, MalformedMessageException {
    if (RunCodec.labelCode(value) == label.code()) {
      return;
    }
    batch.put(runs, key, RunCodec.withLabel(value, label));
    if (batch.count() >= CHUNK) {
      flush(batch);
    }
  }

  private void flush(WriteBatch batch) throws RocksDBException {
    if (batch.count() > 0) {
      db.write(handles.writeOptions(), batch);
      batch.clear();
    }
  }
}
