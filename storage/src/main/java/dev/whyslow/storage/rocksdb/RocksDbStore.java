package dev.whyslow.storage.rocksdb;

import dev.whyslow.protocol.AgentStats;
import dev.whyslow.protocol.Label;
import dev.whyslow.protocol.MalformedMessageException;
import dev.whyslow.protocol.Run;
import dev.whyslow.protocol.Site;
import dev.whyslow.protocol.UnitStats;
import dev.whyslow.protocol.UnitTypeInfo;
import dev.whyslow.protocol.Violation;
import dev.whyslow.protocol.WireWriter;
import dev.whyslow.storage.RunIds;
import dev.whyslow.storage.RunOrigin;
import dev.whyslow.storage.RunQuery;
import dev.whyslow.storage.ServiceSummary;
import dev.whyslow.storage.StoreException;
import dev.whyslow.storage.StoreLimits;
import dev.whyslow.storage.StoreStats;
import dev.whyslow.storage.StoredRun;
import dev.whyslow.storage.StoredThreshold;
import dev.whyslow.storage.StoredUnitStats;
import dev.whyslow.storage.StoredViolation;
import dev.whyslow.storage.UnitStatsQuery;
import dev.whyslow.storage.ViolationIds;
import dev.whyslow.storage.ViolationQuery;
import dev.whyslow.storage.WhyslowStore;
import dev.whyslow.storage.rocksdb.internal.AgentStatsCodec;
import dev.whyslow.storage.rocksdb.internal.BoundedIterator;
import dev.whyslow.storage.rocksdb.internal.ColumnFamily;
import dev.whyslow.storage.rocksdb.internal.EngineStats;
import dev.whyslow.storage.rocksdb.internal.Keys;
import dev.whyslow.storage.rocksdb.internal.RocksDbHandles;
import dev.whyslow.storage.rocksdb.internal.RunCodec;
import dev.whyslow.storage.rocksdb.internal.RunFilter;
import dev.whyslow.storage.rocksdb.internal.RunRelabeller;
import dev.whyslow.storage.rocksdb.internal.RunRetention;
import dev.whyslow.storage.rocksdb.internal.RunWriter;
import dev.whyslow.storage.rocksdb.internal.ServiceCatalog;
import dev.whyslow.storage.rocksdb.internal.SiteCodec;
import dev.whyslow.storage.rocksdb.internal.StoreFormat;
import dev.whyslow.storage.rocksdb.internal.StoreGuard;
import dev.whyslow.storage.rocksdb.internal.UnitRecords;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.locks.ReentrantLock;
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
  public static final int FORMAT_VERSION = StoreFormat.CURRENT;

  private final RocksDbConfig config;
  private final RocksDbHandles handles;
  private final RocksDB db;
  private final ColumnFamilyHandle sitesCf;
  private final ColumnFamilyHandle runsCf;
  private final ColumnFamilyHandle agentStatsCf;
  private final ColumnFamilyHandle metaCf;

  private final StoreGuard guard;

  /** Serializes id assignment and every change to {@link #catalog}. */
  private final ReentrantLock writeLock = new ReentrantLock();

  private final ServiceCatalog catalog;

  /** Keeps a relabel from writing back a run that retention has just deleted. */
  private final ReentrantLock retentionLock = new ReentrantLock();

  private final RunWriter runWriter;
  private final RunRelabeller relabeller;
  private final RunRetention retention;
  private final UnitRecords units;

  private RocksDbStore(
      RocksDbConfig config, RocksDbHandles handles, ServiceCatalog catalog, UnitRecords units) {
    this.config = config;
    this.handles = handles;
    this.db = handles.db();
    this.sitesCf = handles.family(ColumnFamily.SITES);
    this.runsCf = handles.family(ColumnFamily.RUNS);
    this.agentStatsCf = handles.family(ColumnFamily.AGENT_STATS);
    this.metaCf = handles.family(ColumnFamily.META);
    this.catalog = catalog;
    this.guard = new StoreGuard(handles.dataDir());
    this.runWriter = new RunWriter(handles, catalog, writeLock);
    this.relabeller = new RunRelabeller(handles);
    this.retention = new RunRetention(handles, catalog, writeLock);
    this.units = units;
  }

  /**
   * Opens the store in {@code config.dataDir()}, creating it if needed. Fails with a {@link
   * StoreException} that says what to do if the directory cannot be written, is in use by another
   * process, or was written by a newer format.
   */
  public static RocksDbStore open(RocksDbConfig config) {
    RocksDbHandles handles = RocksDbHandles.open(config);
    try {
      StoreFormat.checkOrInitialize(handles);
      ServiceCatalog catalog = ServiceCatalog.load(handles.db(), handles.family(ColumnFamily.META));
      return new RocksDbStore(config, handles, catalog, UnitRecords.load(handles));
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

  // ---- sites

  @Override
  public void putSites(String service, Collection<Site> sites) {
    StoreLimits.checkService(service);
    Map<Long, byte[]> values = new LinkedHashMap<>();
    WireWriter w = new WireWriter(256);
    for (Site site : sites) {
      values.put(site.key(), SiteCodec.encode(site, w));
    }
    guard.call(
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
    return guard.call(
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
    return guard.call(
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
    byte[][] values = RunWriter.encode(origin, runs);
    long[] starts = runs.stream().mapToLong(Run::startEpochMillis).toArray();
    long[] ids =
        guard.call(
            "storing " + values.length + " runs of " + origin.service() + "/" + origin.instance(),
            () -> runWriter.write(origin, starts, values));
    List<StoredRun> stored = new ArrayList<>(values.length);
    for (int i = 0; i < values.length; i++) {
      stored.add(new StoredRun(ids[i], origin, runs.get(i)));
    }
    return List.copyOf(stored);
  }

  @Override
  public List<StoredRun> runs(RunQuery query) {
    return guard.call(
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
    return guard.call(
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
    return guard.call(
        "relabelling runs",
        () -> {
          byte[][] range = keyRange(query);
          if (range == null) {
            return 0L;
          }
          retentionLock.lock();
          try {
            return relabeller.relabelRange(range[0], range[1], new RunFilter(query), label);
          } finally {
            retentionLock.unlock();
          }
        });
  }

  @Override
  public long relabel(Collection<Long> runIds, Label label) {
    Set<Long> unique = new LinkedHashSet<>(runIds);
    return guard.call(
        "relabelling " + unique.size() + " runs",
        () -> {
          retentionLock.lock();
          try {
            return relabeller.relabelIds(unique, label);
          } finally {
            retentionLock.unlock();
          }
        });
  }

  // ---- services, agents, retention, stats

  @Override
  public List<ServiceSummary> services() {
    return guard.call(
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
    guard.call(
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
    return guard.call(
        "reading agent stats of " + origin.service() + "/" + origin.instance(),
        () -> {
          if (!fitsInKey(origin.service(), origin.instance(), origin.serviceVersion())) {
            return Optional.empty();
          }
          byte[] value = db.get(agentStatsCf, agentStatsKey(origin));
          return value == null ? Optional.empty() : Optional.of(AgentStatsCodec.decode(value));
        });
  }

  /** Range deletion; see {@link RunRetention} for how the counts stay exact. */
  @Override
  public long deleteRunsBefore(long cutoffEpochMillis) {
    return guard.call(
        "deleting runs before " + cutoffEpochMillis + " ms",
        () -> {
          retentionLock.lock();
          try {
            return retention.deleteBefore(cutoffEpochMillis);
          } finally {
            retentionLock.unlock();
          }
        });
  }

  // ---- units, thresholds, violations

  @Override
  public void putUnitStats(RunOrigin origin, UnitStats stats) {
    StoreLimits.checkOrigin(origin);
    StoreLimits.checkUnitStats(origin, stats);
    guard.call(
        "storing unit statistics of " + origin.service() + "/" + origin.instance(),
        () -> {
          units.putUnitStats(origin, stats);
          return null;
        });
  }

  @Override
  public List<StoredUnitStats> unitStats(UnitStatsQuery query) {
    return guard.call(
        "reading unit statistics of service " + query.service(),
        () ->
            fitsInKey(query.service(), query.unitType().orElse(""))
                ? List.copyOf(units.unitStats(query))
                : List.of());
  }

  @Override
  public void putThresholds(String service, Collection<StoredThreshold> thresholds) {
    StoreLimits.checkService(service);
    thresholds.forEach(t -> StoreLimits.checkUnitType(t.unitType()));
    guard.call(
        "storing thresholds of service " + service,
        () -> {
          units.putThresholds(service, thresholds);
          return null;
        });
  }

  @Override
  public List<StoredThreshold> thresholds(String service) {
    return guard.call(
        "reading thresholds of service " + service,
        () -> fitsInKey(service) ? List.copyOf(units.thresholds(service)) : List.of());
  }

  @Override
  public List<StoredViolation> putViolations(RunOrigin origin, List<Violation> violations) {
    StoreLimits.checkOrigin(origin);
    violations.forEach(v -> StoreLimits.checkViolation(origin, v));
    long[] ids =
        guard.call(
            "storing "
                + violations.size()
                + " violations of "
                + origin.service()
                + "/"
                + origin.instance(),
            () -> units.putViolations(origin, violations));
    List<StoredViolation> stored = new ArrayList<>(ids.length);
    for (int i = 0; i < ids.length; i++) {
      stored.add(new StoredViolation(ids[i], origin, violations.get(i)));
    }
    return List.copyOf(stored);
  }

  @Override
  public List<StoredViolation> violations(ViolationQuery query) {
    return guard.call(
        "reading violations of service " + query.service(),
        () -> List.copyOf(units.violations(query)));
  }

  @Override
  public Optional<StoredViolation> violation(long violationId) {
    return guard.call(
        "reading violation " + ViolationIds.format(violationId),
        () -> units.violation(violationId));
  }

  @Override
  public void putUnitTypes(String service, Collection<UnitTypeInfo> types) {
    StoreLimits.checkService(service);
    types.forEach(t -> StoreLimits.checkUnitType(t.name()));
    guard.call(
        "storing unit types of service " + service,
        () -> {
          units.putUnitTypes(service, types);
          return null;
        });
  }

  @Override
  public List<UnitTypeInfo> unitTypes(String service) {
    return guard.call(
        "reading unit types of service " + service,
        () -> fitsInKey(service) ? List.copyOf(units.unitTypes(service)) : List.of());
  }

  @Override
  public long deleteUnitStatsBefore(long cutoffEpochMillis) {
    return guard.call(
        "deleting unit statistics before " + cutoffEpochMillis + " ms",
        () -> units.deleteUnitStatsBefore(cutoffEpochMillis));
  }

  @Override
  public long deleteViolationsBefore(long cutoffEpochMillis) {
    return guard.call(
        "deleting violations before " + cutoffEpochMillis + " ms",
        () -> units.deleteViolationsBefore(cutoffEpochMillis));
  }

  @Override
  public StoreStats stats() {
    return guard.call(
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
    guard.close(handles::close);
  }

  // ---- helpers

  /** Whether a key exists; the Bloom filters answer most "no" cases without reading a block. */
  private boolean exists(ColumnFamilyHandle cf, byte[] key) throws RocksDBException {
    return db.keyMayExist(cf, key, null) && db.get(cf, key) != null;
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
}
