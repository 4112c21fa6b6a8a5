package dev.whyslow.storage.rocksdb.internal;

import dev.whyslow.protocol.MalformedMessageException;
import dev.whyslow.protocol.WireReader;
import dev.whyslow.protocol.WireWriter;
import dev.whyslow.storage.RunOrigin;
import dev.whyslow.storage.ServiceSummary;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.TreeMap;
import java.util.TreeSet;
import org.rocksdb.ColumnFamilyHandle;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;
import org.rocksdb.WriteBatch;

/**
 * What {@code services()} and {@code stats()} answer, kept in memory and mirrored in the {@code
 * meta} family so that neither call scans runs: per service its instances, versions, site count,
 * latest run start and run counts per minute of start time. Retention subtracts whole minutes and
 * counts only the partial minute at the cutoff. Every change is first written into the caller's
 * {@link WriteBatch} and applied here only after that batch is written.
 *
 * <p>Not thread-safe: the store calls it under its write lock.
 */
public final class ServiceCatalog {
  public static final long MINUTE_MILLIS = 60_000;
  private static final int SERVICE_RECORD_VERSION = 1;
  private static final byte[] EMPTY = new byte[0];

  private final TreeMap<String, ServiceState> services = new TreeMap<>();
  private long nextSequence;

  // The partial minute of a retention in progress; runs stored into it meanwhile are counted here.
  private long retentionFromMillis = Long.MAX_VALUE;
  private long retentionToMillis = Long.MIN_VALUE;
  private final Map<String, Long> storedDuringRetention = new HashMap<>();

  private static final class ServiceState {
    final TreeSet<String> instances = new TreeSet<>();
    final TreeSet<String> versions = new TreeSet<>();
    final TreeMap<Long, Long> runsPerMinute = new TreeMap<>();
    long siteCount;
    long lastRunStart;
    long runCount;
  }

  /** Reads the whole {@code meta} family (small: a few keys per service and minute). */
  public static ServiceCatalog load(RocksDB db, ColumnFamilyHandle meta)
      throws RocksDBException, MalformedMessageException {
    ServiceCatalog catalog = new ServiceCatalog();
    byte[] end = {Keys.META_SERVICE_RUNS_PER_MINUTE + 1};
    try (BoundedIterator it = BoundedIterator.over(db, meta, new byte[] {0}, end, true)) {
      for (; it.isValid(); it.next()) {
        catalog.loadEntry(it.key(), it.value());
      }
      it.checkStatus();
    }
    return catalog;
  }

  private void loadEntry(byte[] key, byte[] value) throws MalformedMessageException {
    switch (key[0]) {
      case Keys.META_NEXT_SEQUENCE -> nextSequence = Keys.readLong(value, 0);
      case Keys.META_SERVICE -> {
        WireReader r = new WireReader(value);
        int version = r.readByte("service record version");
        if (version != SERVICE_RECORD_VERSION) {
          throw new MalformedMessageException("service record version " + version);
        }
        ServiceState s = state(Keys.name(key, 1, 0));
        s.siteCount = r.readVarLong("site count");
        s.lastRunStart = r.readLong("last run start");
      }
      case Keys.META_SERVICE_INSTANCE -> state(Keys.name(key, 1, 0)).instances.add(name1(key));
      case Keys.META_SERVICE_VERSION -> state(Keys.name(key, 1, 0)).versions.add(name1(key));
      case Keys.META_SERVICE_RUNS_PER_MINUTE -> {
        ServiceState s = state(Keys.name(key, 1, 0));
        long minute = Keys.readLong(key, Keys.skipNames(key, 1, 1));
        long count = Keys.readLong(value, 0);
        s.runsPerMinute.put(minute, count);
        s.runCount += count;
      }
      default -> {
        // Format version and keys of later features: not ours to interpret.
      }
    }
  }

  public long nextSequence() {
    return nextSequence;
  }

  /**
   * Adds to {@code batch} what storing runs of {@code origin} with these start times changes, and
   * {@code sequenceAfter} as the next run-id sequence; returns what to apply once it is written.
   */
  public Runnable recordRuns(
      WriteBatch batch,
      ColumnFamilyHandle meta,
      RunOrigin origin,
      long[] startMillis,
      long sequenceAfter)
      throws RocksDBException {
    String service = origin.service();
    ServiceState s = services.get(service);
    long siteCount = s == null ? 0 : s.siteCount;
    long lastStart = s == null ? 0 : s.lastRunStart;
    TreeMap<Long, Long> added = new TreeMap<>();
    long maxStart = lastStart;
    long inRetention = 0;
    for (long start : startMillis) {
      added.merge(start / MINUTE_MILLIS, 1L, Long::sum);
      maxStart = Math.max(maxStart, start);
      if (start >= retentionFromMillis && start < retentionToMillis) {
        inRetention++;
      }
    }
    for (Map.Entry<Long, Long> e : added.entrySet()) {
      long before = s == null ? 0 : s.runsPerMinute.getOrDefault(e.getKey(), 0L);
      batch.put(
          meta, Keys.metaRunsPerMinute(service, e.getKey()), Keys.longKey(before + e.getValue()));
    }
    if (s == null || maxStart > lastStart) {
      batch.put(meta, Keys.metaService(Keys.META_SERVICE, service), record(siteCount, maxStart));
    }
    Runnable originApply = recordOrigin(batch, meta, origin);
    batch.put(meta, Keys.meta(Keys.META_NEXT_SEQUENCE), Keys.longKey(sequenceAfter));
    long newLastStart = maxStart;
    long retentionCount = inRetention;
    return () -> {
      ServiceState state = state(service);
      for (Map.Entry<Long, Long> e : added.entrySet()) {
        state.runsPerMinute.merge(e.getKey(), e.getValue(), Long::sum);
        state.runCount += e.getValue();
      }
      state.lastRunStart = newLastStart;
      originApply.run();
      nextSequence = sequenceAfter;
      if (retentionCount > 0) {
        storedDuringRetention.merge(service, retentionCount, Long::sum);
      }
    };
  }

  /** Adds the instance and version of {@code origin} to {@code batch} if they are new. */
  public Runnable recordOrigin(WriteBatch batch, ColumnFamilyHandle meta, RunOrigin origin)
      throws RocksDBException {
    String service = origin.service();
    ServiceState s = services.get(service);
    boolean newInstance = s == null || !s.instances.contains(origin.instance());
    boolean newVersion = s == null || !s.versions.contains(origin.serviceVersion());
    if (newInstance) {
      batch.put(
          meta,
          Keys.metaServiceName(Keys.META_SERVICE_INSTANCE, service, origin.instance()),
          EMPTY);
    }
    if (newVersion) {
      batch.put(
          meta,
          Keys.metaServiceName(Keys.META_SERVICE_VERSION, service, origin.serviceVersion()),
          EMPTY);
    }
    return () -> {
      ServiceState state = state(service);
      state.instances.add(origin.instance());
      state.versions.add(origin.serviceVersion());
    };
  }

  /** Adds a site count grown by {@code newSites} to {@code batch}. */
  public Runnable recordSites(
      WriteBatch batch, ColumnFamilyHandle meta, String service, long newSites)
      throws RocksDBException {
    ServiceState s = services.get(service);
    long siteCount = (s == null ? 0 : s.siteCount) + newSites;
    long lastStart = s == null ? 0 : s.lastRunStart;
    batch.put(meta, Keys.metaService(Keys.META_SERVICE, service), record(siteCount, lastStart));
    return () -> state(service).siteCount = siteCount;
  }

  /**
   * Starts counting runs stored with a start in {@code [fromMillis, toMillis)}: the partial minute
   * a retention is about to scan, so runs arriving during the scan are not missed.
   */
  public void beginRetention(long fromMillis, long toMillis) {
    retentionFromMillis = fromMillis;
    retentionToMillis = toMillis;
    storedDuringRetention.clear();
  }

  /** What a retention deletes and how to apply it; {@link #endRetention} afterwards. */
  public record RetentionPlan(long deletedRuns, Runnable apply) {}

  /**
   * Adds to {@code batch} the removal of every count of minutes before {@code cutoffMinute}, and
   * subtracts from that minute the runs counted in its deleted part ({@code scannedPartial} plus
   * those stored since {@link #beginRetention}).
   */
  public RetentionPlan recordRetention(
      WriteBatch batch,
      ColumnFamilyHandle meta,
      long cutoffMinute,
      boolean partial,
      Map<String, Long> scannedPartial)
      throws RocksDBException {
    long deleted = 0;
    List<Runnable> applies = new ArrayList<>();
    for (Map.Entry<String, ServiceState> e : services.entrySet()) {
      String service = e.getKey();
      ServiceState s = e.getValue();
      NavigableMap<Long, Long> whole = s.runsPerMinute.headMap(cutoffMinute, false);
      long wholeCount = whole.values().stream().mapToLong(Long::longValue).sum();
      if (!whole.isEmpty()) {
        batch.deleteRange(
            meta,
            Keys.metaRunsPerMinute(service, 0),
            Keys.metaRunsPerMinute(service, cutoffMinute));
      }
      long partialCount =
          partial
              ? scannedPartial.getOrDefault(service, 0L)
                  + storedDuringRetention.getOrDefault(service, 0L)
              : 0;
      long bucketLeft = s.runsPerMinute.getOrDefault(cutoffMinute, 0L) - partialCount;
      if (partialCount > 0) {
        byte[] key = Keys.metaRunsPerMinute(service, cutoffMinute);
        if (bucketLeft > 0) {
          batch.put(meta, key, Keys.longKey(bucketLeft));
        } else {
          batch.delete(meta, key);
        }
      }
      deleted += wholeCount + partialCount;
      long removed = wholeCount + partialCount;
      if (removed > 0) {
        applies.add(
            () -> {
              whole.clear();
              if (partialCount > 0) {
                if (bucketLeft > 0) {
                  s.runsPerMinute.put(cutoffMinute, bucketLeft);
                } else {
                  s.runsPerMinute.remove(cutoffMinute);
                }
              }
              s.runCount -= removed;
            });
      }
    }
    return new RetentionPlan(deleted, () -> applies.forEach(Runnable::run));
  }

  public void endRetention() {
    retentionFromMillis = Long.MAX_VALUE;
    retentionToMillis = Long.MIN_VALUE;
    storedDuringRetention.clear();
  }

  public List<ServiceSummary> summaries() {
    List<ServiceSummary> out = new ArrayList<>(services.size());
    for (Map.Entry<String, ServiceState> e : services.entrySet()) {
      ServiceState s = e.getValue();
      out.add(
          new ServiceSummary(
              e.getKey(),
              Collections.unmodifiableSortedSet(new TreeSet<>(s.instances)),
              Collections.unmodifiableSortedSet(new TreeSet<>(s.versions)),
              s.siteCount,
              s.runCount,
              s.lastRunStart));
    }
    return List.copyOf(out);
  }

  public long runCount() {
    return services.values().stream().mapToLong(s -> s.runCount).sum();
  }

  public long siteCount() {
    return services.values().stream().mapToLong(s -> s.siteCount).sum();
  }

  private ServiceState state(String service) {
    return services.computeIfAbsent(service, k -> new ServiceState());
  }

  private static String name1(byte[] key) {
    return Keys.name(key, 1, 1);
  }

  private static byte[] record(long siteCount, long lastRunStart) {
    return new WireWriter(16)
        .writeByte(SERVICE_RECORD_VERSION)
        .writeVarLong(siteCount)
        .writeLong(lastRunStart)
        .toByteArray();
  }
}
