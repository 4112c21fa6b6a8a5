package dev.whyslow.storage.rocksdb.internal;

import dev.whyslow.protocol.MalformedMessageException;
import dev.whyslow.protocol.UnitHistogram;
import dev.whyslow.protocol.UnitStats;
import dev.whyslow.protocol.UnitTypeInfo;
import dev.whyslow.protocol.Violation;
import dev.whyslow.storage.RunIds;
import dev.whyslow.storage.RunOrigin;
import dev.whyslow.storage.StoredThreshold;
import dev.whyslow.storage.StoredUnitStats;
import dev.whyslow.storage.StoredViolation;
import dev.whyslow.storage.UnitStatsQuery;
import dev.whyslow.storage.ViolationIds;
import dev.whyslow.storage.ViolationQuery;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.locks.ReentrantLock;
import org.rocksdb.ColumnFamilyHandle;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;
import org.rocksdb.WriteBatch;

/**
 * The unit records of a RocksDB store: unit statistics, thresholds, violations and unit types
 * (layouts in KEYS.md). Unit statistics and violations are keyed time first, so windows are key
 * ranges and retention is a range deletion; violation ids come from their own sequence in {@code
 * meta} ({@code 0x03}), written with every batch so ids never repeat after a restart.
 */
public final class UnitRecords {
  private final RocksDbHandles handles;
  private final RocksDB db;
  private final ColumnFamilyHandle unitStats;
  private final ColumnFamilyHandle thresholds;
  private final ColumnFamilyHandle violations;
  private final ColumnFamilyHandle unitTypes;
  private final ColumnFamilyHandle meta;
  private final ReentrantLock violationLock = new ReentrantLock();
  private long nextViolationSequence;

  private UnitRecords(RocksDbHandles handles, long nextViolationSequence) {
    this.handles = handles;
    this.db = handles.db();
    this.unitStats = handles.family(ColumnFamily.UNIT_STATS);
    this.thresholds = handles.family(ColumnFamily.THRESHOLDS);
    this.violations = handles.family(ColumnFamily.VIOLATIONS);
    this.unitTypes = handles.family(ColumnFamily.UNIT_TYPES);
    this.meta = handles.family(ColumnFamily.META);
    this.nextViolationSequence = nextViolationSequence;
  }

  public static UnitRecords load(RocksDbHandles handles) throws RocksDBException {
    byte[] value =
        handles
            .db()
            .get(handles.family(ColumnFamily.META), Keys.meta(Keys.META_NEXT_VIOLATION_SEQUENCE));
    return new UnitRecords(handles, value == null ? 0 : Keys.readLong(value, 0));
  }

  // ---- unit statistics

  public void putUnitStats(RunOrigin origin, UnitStats stats) throws RocksDBException {
    if (stats.histograms().isEmpty()) {
      return;
    }
    try (WriteBatch batch = new WriteBatch()) {
      for (UnitHistogram h : stats.histograms()) {
        batch.put(
            unitStats,
            Keys.unitStats(
                stats.intervalStartEpochMillis(),
                origin.service(),
                h.unitType(),
                origin.instance()),
            UnitStatsCodec.encode(origin.serviceVersion(), stats.intervalMillis(), h));
      }
      db.write(handles.writeOptions(), batch);
    }
  }

  public List<StoredUnitStats> unitStats(UnitStatsQuery query)
      throws RocksDBException, MalformedMessageException {
    List<StoredUnitStats> out = new ArrayList<>();
    if (query.fromInclusiveMillis() >= query.toExclusiveMillis()
        || query.toExclusiveMillis() <= 0) {
      return out;
    }
    byte[] service = UnitStatsCodec.nameBytes(query.service());
    byte[] unitType = query.unitType().map(UnitStatsCodec::nameBytes).orElse(null);
    try (BoundedIterator it =
        BoundedIterator.over(
            db,
            unitStats,
            Keys.longKey(Math.max(0, query.fromInclusiveMillis())),
            Keys.longKey(query.toExclusiveMillis()),
            true)) {
      for (; it.isValid(); it.next()) {
        byte[] key = it.key();
        if (UnitStatsCodec.keyMatches(key, service, unitType)) {
          out.add(UnitStatsCodec.decode(key, it.value()));
        }
      }
      it.checkStatus();
    }
    return out;
  }

  /** Range deletion of the intervals that started before the cutoff; returns how many. */
  public long deleteUnitStatsBefore(long cutoffMillis) throws RocksDBException {
    return deleteBefore(unitStats, Keys.longKey(Math.max(0, cutoffMillis)));
  }

  // ---- thresholds and unit types

  public void putThresholds(String service, Collection<StoredThreshold> values)
      throws RocksDBException {
    try (WriteBatch batch = new WriteBatch()) {
      for (StoredThreshold t : values) {
        batch.put(
            thresholds, Keys.serviceUnitType(service, t.unitType()), ThresholdCodec.encode(t));
      }
      db.write(handles.writeOptions(), batch);
    }
  }

  public List<StoredThreshold> thresholds(String service)
      throws RocksDBException, MalformedMessageException {
    List<StoredThreshold> out = new ArrayList<>();
    byte[] prefix = Keys.serviceName(service);
    try (BoundedIterator it =
        BoundedIterator.over(db, thresholds, prefix, Keys.prefixEnd(prefix), true)) {
      for (; it.isValid(); it.next()) {
        out.add(ThresholdCodec.decode(Keys.name(it.key(), 0, 1), it.value()));
      }
      it.checkStatus();
    }
    return out;
  }

  public void putUnitTypes(String service, Collection<UnitTypeInfo> types) throws RocksDBException {
    try (WriteBatch batch = new WriteBatch()) {
      for (UnitTypeInfo info : types) {
        batch.put(
            unitTypes, Keys.serviceUnitType(service, info.name()), UnitTypeCodec.encode(info));
      }
      db.write(handles.writeOptions(), batch);
    }
  }

  public List<UnitTypeInfo> unitTypes(String service)
      throws RocksDBException, MalformedMessageException {
    List<UnitTypeInfo> out = new ArrayList<>();
    byte[] prefix = Keys.serviceName(service);
    try (BoundedIterator it =
        BoundedIterator.over(db, unitTypes, prefix, Keys.prefixEnd(prefix), true)) {
      for (; it.isValid(); it.next()) {
        out.add(UnitTypeCodec.decode(Keys.name(it.key(), 0, 1), it.value()));
      }
      it.checkStatus();
    }
    return out;
  }

  // ---- violations

  /** Encodes everything first, then assigns ids and writes in one batch. */
  public long[] putViolations(RunOrigin origin, List<Violation> list) throws RocksDBException {
    byte[][] values = new byte[list.size()][];
    for (int i = 0; i < values.length; i++) {
      values[i] = ViolationCodec.encode(origin, list.get(i));
    }
    long[] ids = new long[values.length];
    if (values.length == 0) {
      return ids;
    }
    violationLock.lock();
    try (WriteBatch batch = new WriteBatch()) {
      long sequence = nextViolationSequence;
      Set<Long> taken = new HashSet<>();
      for (int i = 0; i < values.length; i++) {
        long id;
        byte[] key;
        // As for runs: the 20-bit sequence wraps, so skip ids already in use.
        do {
          id = ViolationIds.of(list.get(i).detectedEpochMillis(), sequence++);
          key = Keys.longKey(id);
        } while (!taken.add(id)
            || (db.keyMayExist(violations, key, null) && db.get(violations, key) != null));
        ids[i] = id;
        batch.put(violations, key, values[i]);
      }
      batch.put(meta, Keys.meta(Keys.META_NEXT_VIOLATION_SEQUENCE), Keys.longKey(sequence));
      db.write(handles.writeOptions(), batch);
      nextViolationSequence = sequence;
    } finally {
      violationLock.unlock();
    }
    return ids;
  }

  public List<StoredViolation> violations(ViolationQuery query)
      throws RocksDBException, MalformedMessageException {
    List<StoredViolation> out = new ArrayList<>();
    long from = query.fromInclusiveMillis();
    long to = query.toExclusiveMillis();
    if (from >= to || from > RunIds.MAX_EPOCH_MILLIS || to <= 0) {
      return out;
    }
    byte[] end =
        to > RunIds.MAX_EPOCH_MILLIS ? Keys.RUN_ID_END : Keys.longKey(ViolationIds.firstIdAt(to));
    try (BoundedIterator it =
        BoundedIterator.reverse(
            db, violations, Keys.longKey(ViolationIds.firstIdAt(Math.max(0, from))), end)) {
      for (; it.isValid() && out.size() < query.limit(); it.next()) {
        byte[] value = it.value();
        if (!ViolationCodec.service(value).equals(query.service())) {
          continue;
        }
        StoredViolation v = ViolationCodec.decode(Keys.readLong(it.key(), 0), value);
        if (query.unitType().map(t -> t.equals(v.violation().unitType())).orElse(true)) {
          out.add(v);
        }
      }
      it.checkStatus();
    }
    return out;
  }

  public Optional<StoredViolation> violation(long id)
      throws RocksDBException, MalformedMessageException {
    if (id < 0) {
      return Optional.empty();
    }
    byte[] value = db.get(violations, Keys.longKey(id));
    return value == null ? Optional.empty() : Optional.of(ViolationCodec.decode(id, value));
  }

  public long deleteViolationsBefore(long cutoffMillis) throws RocksDBException {
    byte[] end =
        cutoffMillis > RunIds.MAX_EPOCH_MILLIS
            ? Keys.RUN_ID_END
            : Keys.longKey(ViolationIds.firstIdAt(cutoffMillis));
    return deleteBefore(violations, end);
  }

  /**
   * Counts the keys below {@code end} (retention runs hourly and these families are small next to
   * runs), drops the SST files wholly below it, then writes one range deletion.
   */
  private long deleteBefore(ColumnFamilyHandle cf, byte[] end) throws RocksDBException {
    byte[] start = Keys.longKey(0);
    long count = 0;
    try (BoundedIterator it = BoundedIterator.over(db, cf, start, end, false)) {
      for (; it.isValid(); it.next()) {
        count++;
      }
      it.checkStatus();
    }
    if (count == 0) {
      return 0;
    }
    db.deleteFilesInRanges(cf, List.of(start, end), false);
    try (WriteBatch batch = new WriteBatch()) {
      batch.deleteRange(cf, start, end);
      db.write(handles.writeOptions(), batch);
    }
    return count;
  }
}
