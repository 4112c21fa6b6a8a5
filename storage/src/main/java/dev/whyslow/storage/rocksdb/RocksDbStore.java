package dev.whyslow.storage.rocksdb;

import dev.whyslow.protocol.AgentStats;
import dev.whyslow.protocol.Label;
import dev.whyslow.protocol.MalformedMessageException;
import dev.whyslow.protocol.Run;
import dev.whyslow.protocol.Site;
import dev.whyslow.protocol.WireWriter;
import dev.whyslow.storage.RunIds;
import dev.whyslow.storage.RunOrigin;
import dev.whyslow.storage.RunQuery;
import dev.whyslow.storage.ServiceSummary;
import dev.whyslow.storage.StoreException;
import dev.whyslow.storage.StoreLimits;
import dev.whyslow.storage.StoreStats;
import dev.whyslow.storage.StoredRun;
import dev.whyslow.storage.WhyslowStore;
import dev.whyslow.storage.rocksdb.internal.AgentStatsCodec;
import dev.whyslow.storage.rocksdb.internal.BoundedIterator;
import dev.whyslow.storage.rocksdb.internal.ColumnFamily;
import dev.whyslow.storage.rocksdb.internal.EngineStats;
import dev.whyslow.storage.rocksdb.internal.Keys;
import dev.whyslow.storage.rocksdb.internal.RocksDbHandles;
import dev.whyslow.storage.rocksdb.internal.RunCodec;
import dev.whyslow.storage.rocksdb.internal.RunFilter;
import dev.whyslow.storage.rocksdb.internal.ServiceCatalog;
import dev.whyslow.storage.rocksdb.internal.SiteCodec;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.locks.ReentrantLock;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import org.rocksdb.ColumnFamilyHandle;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;
import org.rocksdb.WriteBatch;

/**
 * The production {@link WhyslowStore}: one RocksDB database with a column family per kind of
 * record, keys laid out in {@code storage/KEYS.md}. Runs are keyed by run id, so a time window is a
 * key range and retention is one {@code deleteRange}. Open with {@link #open(RocksDbConfig)}; close
 * once, after which every call throws {@link IllegalStateException}.
 *
 * <p>Durability: every write is one {@link WriteBatch} through the WAL. Without {@link
 * RocksDbConfig#syncWrites()} the WAL is not fsynced per write, so an acknowledged write survives a
 * crash or kill of the process but may be lost if the machine itself fails; a clean {@link #close}
 * syncs it. Writes that change counters or assign run ids are serialized by one lock, which
 * RocksDB's single write path would serialize anyway; encoding happens before taking it.
 *
 * <p>Failures of the engine (I/O, full disk, corruption) surface as {@link StoreException} naming
 * the data directory; input the store cannot hold surfaces as {@link IllegalArgumentException}
 * before anything of the batch is written.
 */
public final class RocksDbStore implements WhyslowStore {
  /** Version of the store layout as a whole, kept in {@code meta}; see KEYS.md. */
  public static final int FORMAT_VERSION = 1;

  private static final int RELABEL_CHUNK = 4096;

  private final RocksDbConfig config;
  private final RocksDbHandles handles;
  private final RocksDB db;
  private final ColumnFamilyHandle sitesCf;
  private final ColumnFamilyHandle runsCf;
  private final ColumnFamilyHandle agentStatsCf;
  private final ColumnFamilyHandle metaCf;

  /** Held for reading by every call and for writing by close, so close waits for calls. */
  private final ReentrantReadWriteLock lifecycle = new ReentrantReadWriteLock();

  private boolean closed;

  /** Serializes id assignment and every change to {@link #catalog}. */
  private final ReentrantLock writeLock = new ReentrantLock();

  private final ServiceCatalog catalog;

  /** Keeps a relabel from writing back a run that retention has just deleted. */
  private final ReentrantLock retentionLock = new ReentrantLock();

  private RocksDbStore(RocksDbConfig config, RocksDbHandles handles, ServiceCatalog catalog) {
    this.config = config;
    this.handles = handles;
    this.db = handles.db();
    this.sitesCf = handles.family(ColumnFamily.SITES);
    this.runsCf = handles.family(ColumnFamily.RUNS);
    this.agentStatsCf = handles.family(ColumnFamily.AGENT_STATS);
    this.metaCf = handles.family(ColumnFamily.META);
    this.catalog = catalog;
  }

  /**
   * Opens the store in {@code config.dataDir()}, creating it if needed. Fails with a {@link
   * StoreException} that says what to do if the directory cannot be written, is in use by another
   * process, or was written by a newer format.
   */
  public static RocksDbStore open(RocksDbConfig config) {
    RocksDbHandles handles = RocksDbHandles.open(config);
    try {
      checkFormat(handles);
      ServiceCatalog catalog = ServiceCatalog.load(handles.db(), handles.family(ColumnFamily.META));
      return new RocksDbStore(config, handles, catalog);
    } catch (RocksDBException | MalformedMessageException | RuntimeException e) {
      try {
        handles.close();
      } catch (RuntimeException closing) {
        e.addSuppressed(closing);
      }
      if (e instanceof StoreException se) {
        throw se;
      }
      throw new StoreException(
          "cannot open the store in " + handles.dataDir() + ": " + e.getMessage(), e);
    }
  }

  private static void checkFormat(RocksDbHandles handles) throws RocksDBException {
    ColumnFamilyHandle meta = handles.family(ColumnFamily.META);
    byte[] key = Keys.meta(Keys.META_FORMAT_VERSION);
    byte[] value = handles.db().get(meta, key);
    if (value == null) {
      handles.db().put(meta, handles.writeOptions(), key, intBytes(FORMAT_VERSION));
      return;
    }
    int version = value.length == 4 ? ByteBuffer.wrap(value).getInt() : -1;
    if (version > FORMAT_VERSION) {
      throw new StoreException(
          "storage data directory "
              + handles.dataDir()
              + " was written in store format "
              + version
              + ", newer than format "
              + FORMAT_VERSION
              + " that this whyslowd reads; run a whyslowd at least as new as the one that wrote"
              + " it, or configure an empty data directory");
    }
    if (version < 1) {
      throw new StoreException(
          "storage data directory "
              + handles.dataDir()
              + " has an unreadable format marker; it is damaged or not a whyslow store."
              + " Restore it from a checkpoint or configure another data directory");
    }
  }

  // ---- sites

  @Override
  public void putSites(String service, Collection<Site> sites) {
    StoreLimits.checkService(service);
    Map<Long, byte[]> values = new LinkedHashMap<>();
    WireWriter w = new WireWriter(256);
    for (Site site : sites) {
      values.put(site.key(), SiteCodec.encode(site, w));
    }
    guarded(
        "storing " + values.size() + " sites of service " + service,
        () -> {
          if (values.isEmpty()) {
            return null;
          }
          writeLock.lock();
          try (WriteBatch batch = new WriteBatch()) {
            long added = 0;
            for (Map.Entry<Long, byte[]> e : values.entrySet()) {
              byte[] key = Keys.site(service, e.getKey());
              if (!exists(sitesCf, key)) {
                added++;
              }
              batch.put(sitesCf, key, e.getValue());
            }
            Runnable apply = catalog.recordSites(batch, metaCf, service, added);
            db.write(handles.writeOptions(), batch);
            apply.run();
          } finally {
            writeLock.unlock();
          }
          return null;
        });
  }

  @Override
  public List<Site> sites(String service) {
    return guarded(
        "reading sites of service " + service,
        () -> {
          if (!fitsInKey(service)) {
            return List.of();
          }
          byte[] prefix = Keys.sitesOf(service);
          List<Site> out = new ArrayList<>();
          try (BoundedIterator it =
              BoundedIterator.over(db, sitesCf, prefix, Keys.prefixEnd(prefix), true)) {
            for (; it.isValid(); it.next()) {
              byte[] key = it.key();
              out.add(SiteCodec.decode(Keys.readLong(key, key.length - 8), it.value()));
            }
            it.checkStatus();
          }
          return List.copyOf(out);
        });
  }

  @Override
  public Optional<Site> site(String service, long siteKey) {
    return guarded(
        "reading a site of service " + service,
        () -> {
          if (!fitsInKey(service)) {
            return Optional.empty();
          }
          byte[] value = db.get(sitesCf, Keys.site(service, siteKey));
          return value == null ? Optional.empty() : Optional.of(SiteCodec.decode(siteKey, value));
        });
  }

  // ---- runs

  @Override
  public List<StoredRun> putRuns(RunOrigin origin, List<Run> runs) {
    StoreLimits.checkOrigin(origin);
    for (Run run : runs) {
      StoreLimits.checkRun(origin, run);
    }
    byte[][] values = new byte[runs.size()][];
    long[] starts = new long[runs.size()];
    WireWriter w = new WireWriter(512);
    for (int i = 0; i < values.length; i++) {
      Run run = runs.get(i);
      starts[i] = run.startEpochMillis();
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
    long[] ids = new long[values.length];
    guarded(
        "storing " + values.length + " runs of " + origin.service() + "/" + origin.instance(),
        () -> {
          if (values.length == 0) {
            return null;
          }
          writeLock.lock();
          try (WriteBatch batch = new WriteBatch()) {
            long sequence = catalog.nextSequence();
            Set<Long> taken = new HashSet<>();
            for (int i = 0; i < values.length; i++) {
              long id;
              byte[] key;
              // The sequence wraps every 2^20 runs, so an id can already belong to an older run
              // that started in the same millisecond: skip to the next free one.
              do {
                id = RunIds.of(starts[i], sequence++);
                key = Keys.longKey(id);
              } while (!taken.add(id) || exists(runsCf, key));
              ids[i] = id;
              batch.put(runsCf, key, values[i]);
            }
            Runnable apply = catalog.recordRuns(batch, metaCf, origin, starts, sequence);
            db.write(handles.writeOptions(), batch);
            apply.run();
          } finally {
            writeLock.unlock();
          }
          return null;
        });
    List<StoredRun> stored = new ArrayList<>(values.length);
    for (int i = 0; i < values.length; i++) {
      stored.add(new StoredRun(ids[i], origin, runs.get(i)));
    }
    return List.copyOf(stored);
  }

  @Override
  public List<StoredRun> runs(RunQuery query) {
    return guarded(
        "reading runs",
        () -> {
          List<StoredRun> out = new ArrayList<>();
          byte[][] range = keyRange(query);
          if (range == null) {
            return out;
          }
          RunFilter filter = new RunFilter(query);
          try (BoundedIterator it = BoundedIterator.over(db, runsCf, range[0], range[1], true)) {
            for (; it.isValid() && out.size() < query.limit(); it.next()) {
              byte[] value = it.value();
              if (filter.matches(value)) {
                out.add(RunCodec.decode(Keys.readLong(it.key(), 0), value));
              }
            }
            it.checkStatus();
          }
          return List.copyOf(out);
        });
  }

  @Override
  public Optional<StoredRun> run(long runId) {
    return guarded(
        "reading run " + RunIds.format(runId),
        () -> {
          if (runId < 0) {
            return Optional.empty();
          }
          byte[] value = db.get(runsCf, Keys.longKey(runId));
          return value == null ? Optional.empty() : Optional.of(RunCodec.decode(runId, value));
        });
  }

  @Override
  public long relabel(RunQuery query, Label label) {
    return guarded(
        "relabelling runs",
        () -> {
          byte[][] range = keyRange(query);
          if (range == null) {
            return 0L;
          }
          RunFilter filter = new RunFilter(query);
          long matched = 0;
          retentionLock.lock();
          try (WriteBatch batch = new WriteBatch();
              BoundedIterator it = BoundedIterator.over(db, runsCf, range[0], range[1], false)) {
            for (; it.isValid(); it.next()) {
              byte[] value = it.value();
              if (!filter.matches(value)) {
                continue;
              }
              matched++;
              if (RunCodec.labelCode(value) != label.code()) {
                batch.put(runsCf, it.key(), RunCodec.withLabel(value, label));
                flushIfFull(batch);
              }
            }
            it.checkStatus();
            flush(batch);
          } finally {
            retentionLock.unlock();
          }
          return matched;
        });
  }

  @Override
  public long relabel(Collection<Long> runIds, Label label) {
    Set<Long> unique = new LinkedHashSet<>(runIds);
    return guarded(
        "relabelling " + unique.size() + " runs",
        () -> {
          long found = 0;
          retentionLock.lock();
          try (WriteBatch batch = new WriteBatch()) {
            for (long id : unique) {
              byte[] key = Keys.longKey(id);
              byte[] value = id < 0 ? null : db.get(runsCf, key);
              if (value == null) {
                continue;
              }
              found++;
              if (RunCodec.labelCode(value) != label.code()) {
                batch.put(runsCf, key, RunCodec.withLabel(value, label));
                flushIfFull(batch);
              }
            }
            flush(batch);
          } finally {
            retentionLock.unlock();
          }
          return found;
        });
  }

  // ---- services, agents, retention, stats

  @Override
  public List<ServiceSummary> services() {
    return guarded(
        "listing services",
        () -> {
          writeLock.lock();
          try {
            return catalog.summaries();
          } finally {
            writeLock.unlock();
          }
        });
  }

  @Override
  public void putAgentStats(RunOrigin origin, AgentStats stats) {
    StoreLimits.checkOrigin(origin);
    byte[] value = AgentStatsCodec.encode(stats);
    guarded(
        "storing agent stats of " + origin.service() + "/" + origin.instance(),
        () -> {
          writeLock.lock();
          try (WriteBatch batch = new WriteBatch()) {
            batch.put(agentStatsCf, agentStatsKey(origin), value);
            Runnable apply = catalog.recordOrigin(batch, metaCf, origin);
            db.write(handles.writeOptions(), batch);
            apply.run();
          } finally {
            writeLock.unlock();
          }
          return null;
        });
  }

  @Override
  public Optional<AgentStats> agentStats(RunOrigin origin) {
    return guarded(
        "reading agent stats of " + origin.service() + "/" + origin.instance(),
        () -> {
          if (!fitsInKey(origin.service(), origin.instance(), origin.serviceVersion())) {
            return Optional.empty();
          }
          byte[] value = db.get(agentStatsCf, agentStatsKey(origin));
          return value == null ? Optional.empty() : Optional.of(AgentStatsCodec.decode(value));
        });
  }

  /**
   * Deletes by one range deletion, then drops the SST files wholly inside the range so the disk
   * space comes back without waiting for compaction. Counts come from the per-minute counters, so
   * only the runs of the minute containing the cutoff are read.
   */
  @Override
  public long deleteRunsBefore(long cutoffEpochMillis) {
    return guarded(
        "deleting runs before " + cutoffEpochMillis + " ms",
        () -> {
          if (cutoffEpochMillis <= 0) {
            return 0L;
          }
          boolean everything = cutoffEpochMillis > RunIds.MAX_EPOCH_MILLIS;
          long cutoffMinute =
              everything ? Long.MAX_VALUE : cutoffEpochMillis / ServiceCatalog.MINUTE_MILLIS;
          long partialFrom = everything ? 0 : cutoffMinute * ServiceCatalog.MINUTE_MILLIS;
          boolean partial = !everything && cutoffEpochMillis > partialFrom;
          byte[] endKey =
              everything ? Keys.RUN_ID_END : Keys.longKey(RunIds.firstIdAt(cutoffEpochMillis));
          retentionLock.lock();
          try {
            Map<String, Long> partialCounts = new HashMap<>();
            if (partial) {
              countPartialMinute(partialFrom, cutoffEpochMillis, endKey, partialCounts);
            }
            long deleted;
            writeLock.lock();
            try (WriteBatch batch = new WriteBatch()) {
              batch.deleteRange(runsCf, Keys.longKey(0), endKey);
              ServiceCatalog.RetentionPlan plan =
                  catalog.recordRetention(batch, metaCf, cutoffMinute, partial, partialCounts);
              db.write(handles.writeOptions(), batch);
              plan.apply().run();
              deleted = plan.deletedRuns();
            } finally {
              catalog.endRetention();
              writeLock.unlock();
            }
            db.deleteFilesInRanges(runsCf, List.of(Keys.longKey(0), endKey), false);
            return deleted;
          } finally {
            retentionLock.unlock();
          }
        });
  }

  /**
   * Counts per service the runs of {@code [fromMillis, toMillis)}, which lies in one minute. The
   * iterator is created under the write lock together with {@link ServiceCatalog#beginRetention},
   * so every run is counted exactly once: by the scan if it was stored before, by the catalog if
   * after.
   */
  private void countPartialMinute(
      long fromMillis, long toMillis, byte[] endKey, Map<String, Long> counts)
      throws RocksDBException, MalformedMessageException {
    BoundedIterator it;
    writeLock.lock();
    try {
      catalog.beginRetention(fromMillis, toMillis);
      it =
          BoundedIterator.over(
              db, runsCf, Keys.longKey(RunIds.firstIdAt(fromMillis)), endKey, false);
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

  @Override
  public StoreStats stats() {
    return guarded(
        "reading store statistics",
        () -> {
          long runs;
          long sites;
          writeLock.lock();
          try {
            runs = catalog.runCount();
            sites = catalog.siteCount();
          } finally {
            writeLock.unlock();
          }
          long disk;
          try {
            disk = EngineStats.directoryBytes(handles.dataDir());
          } catch (IOException e) {
            throw new StoreException(
                "cannot measure the data directory " + handles.dataDir() + ": " + e, e);
          }
          return new StoreStats(
              runs, sites, disk, EngineStats.collect(handles, config.cacheBytes()));
        });
  }

  @Override
  public void close() {
    lifecycle.writeLock().lock();
    try {
      if (closed) {
        return;
      }
      closed = true;
      handles.close();
    } finally {
      lifecycle.writeLock().unlock();
    }
  }

  // ---- helpers

  @FunctionalInterface
  private interface StoreCall<T> {
    T call() throws RocksDBException, MalformedMessageException;
  }

  private <T> T guarded(String what, StoreCall<T> call) {
    lifecycle.readLock().lock();
    try {
      if (closed) {
        throw new IllegalStateException(
            "the store in " + handles.dataDir() + " is closed; " + what + " is not possible");
      }
      return call.call();
    } catch (RocksDBException e) {
      throw new StoreException(what + " failed in " + handles.dataDir() + ": " + e.getMessage(), e);
    } catch (MalformedMessageException e) {
      throw new StoreException(
          what
              + ": a stored record in "
              + handles.dataDir()
              + " is unreadable ("
              + e.getMessage()
              + "); the data directory may be damaged, restore it from a checkpoint",
          e);
    } finally {
      lifecycle.readLock().unlock();
    }
  }

  /** Whether a key exists; the Bloom filters answer most "no" cases without reading a block. */
  private boolean exists(ColumnFamilyHandle cf, byte[] key) throws RocksDBException {
    return db.keyMayExist(cf, key, null) && db.get(cf, key) != null;
  }

  private void flushIfFull(WriteBatch batch) throws RocksDBException {
    if (batch.count() >= RELABEL_CHUNK) {
      flush(batch);
    }
  }

  private void flush(WriteBatch batch) throws RocksDBException {
    if (batch.count() > 0) {
      db.write(handles.writeOptions(), batch);
      batch.clear();
    }
  }

  /** {@code [from, to)} run-id keys of the query's window, or null if the window is empty. */
  private static byte[][] keyRange(RunQuery query) {
    long from = query.fromInclusiveMillis();
    long to = query.toExclusiveMillis();
    if (from >= to || from > RunIds.MAX_EPOCH_MILLIS || to <= 0) {
      return null;
    }
    byte[] end =
        to > RunIds.MAX_EPOCH_MILLIS ? Keys.RUN_ID_END : Keys.longKey(RunIds.firstIdAt(to));
    return new byte[][] {Keys.longKey(RunIds.firstIdAt(from)), end};
  }

  private static byte[] agentStatsKey(RunOrigin origin) {
    return Keys.agentStats(origin.service(), origin.instance(), origin.serviceVersion());
  }

  private static boolean fitsInKey(String... names) {
    for (String name : names) {
      if (name.length() * 3L > StoreLimits.MAX_NAME_BYTES
          && name.getBytes(StandardCharsets.UTF_8).length > StoreLimits.MAX_NAME_BYTES) {
        return false;
      }
    }
    return true;
  }

  private static byte[] intBytes(int v) {
    return ByteBuffer.allocate(4).putInt(v).array();
  }
}
