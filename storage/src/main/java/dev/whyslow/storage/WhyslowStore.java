package dev.whyslow.storage;

import dev.whyslow.protocol.AgentStats;
import dev.whyslow.protocol.Label;
import dev.whyslow.protocol.Run;
import dev.whyslow.protocol.Site;
import dev.whyslow.protocol.UnitStats;
import dev.whyslow.protocol.UnitTypeInfo;
import dev.whyslow.protocol.Violation;
import java.util.Collection;
import java.util.List;
import java.util.Optional;

/**
 * Where whyslowd keeps what agents send. Implementations: {@code RocksDbStore} (production) and
 * {@code InMemoryStore} (unit tests); both pass {@code WhyslowStoreContract}. Every write is atomic
 * and, once the method returns, durable to the degree the implementation promises (RocksDB: in the
 * WAL, so it survives a process crash). Thread-safe.
 */
public interface WhyslowStore extends AutoCloseable {

  /** Stores or replaces site metadata for a service. */
  void putSites(String service, Collection<Site> sites);

  /** All sites of a service, in key order. */
  List<Site> sites(String service);

  Optional<Site> site(String service, long siteKey);

  /**
   * Stores runs atomically, assigning each a run id ({@link RunIds}). Returns the stored runs in
   * the order given.
   */
  List<StoredRun> putRuns(RunOrigin origin, List<Run> runs);

  /** Runs matching the query, oldest first, at most {@code query.limit()}. */
  List<StoredRun> runs(RunQuery query);

  Optional<StoredRun> run(long runId);

  /** Sets the label of every run matching the query (its limit ignored); returns how many. */
  long relabel(RunQuery query, Label label);

  /**
   * Sets the label of the given runs; unknown ids are skipped. Returns how many were relabelled.
   */
  long relabel(Collection<Long> runIds, Label label);

  List<ServiceSummary> services();

  /** Keeps the latest statistics an agent instance sent. */
  void putAgentStats(RunOrigin origin, AgentStats stats);

  Optional<AgentStats> agentStats(RunOrigin origin);

  /**
   * Retention: deletes runs that started before {@code cutoffEpochMillis} by range deletion.
   * Returns an estimate of what was deleted (exact for the in-memory store).
   */
  long deleteRunsBefore(long cutoffEpochMillis);

  // ---- units, thresholds and violations (KEYS.md: unit_stats, thresholds, violations, unit_types)

  /**
   * Stores one agent's histograms of one interval, one entry per unit type; an entry for the same
   * (service, unit type, interval start, instance) is replaced.
   */
  void putUnitStats(RunOrigin origin, UnitStats stats);

  /** Unit statistics matching the query, oldest interval first. */
  List<StoredUnitStats> unitStats(UnitStatsQuery query);

  /** Stores or replaces the thresholds of the given unit types of a service. */
  void putThresholds(String service, Collection<StoredThreshold> thresholds);

  /** The current thresholds of a service, by unit type name. */
  List<StoredThreshold> thresholds(String service);

  /**
   * Stores violations atomically, assigning each an id ({@link ViolationIds}) from its detection
   * time. Returns them in the order given.
   */
  List<StoredViolation> putViolations(RunOrigin origin, List<Violation> violations);

  /** Violations matching the query, newest first, at most {@code query.limit()}. */
  List<StoredViolation> violations(ViolationQuery query);

  Optional<StoredViolation> violation(long violationId);

  /** Stores or replaces what training learned of the given unit types of a service. */
  void putUnitTypes(String service, Collection<UnitTypeInfo> types);

  /** The latest info of every unit type of a service, by name. */
  List<UnitTypeInfo> unitTypes(String service);

  /**
   * Retention: deletes unit statistics of intervals that started before {@code cutoffEpochMillis}
   * by range deletion. Returns how many entries were deleted (an estimate for RocksDB).
   */
  long deleteUnitStatsBefore(long cutoffEpochMillis);

  /** Retention: deletes violations detected before {@code cutoffEpochMillis} by range deletion. */
  long deleteViolationsBefore(long cutoffEpochMillis);

  StoreStats stats();

  @Override
  void close();
}
