package dev.whyslow.storage;

import dev.whyslow.protocol.AgentStats;
import dev.whyslow.protocol.Label;
import dev.whyslow.protocol.Run;
import dev.whyslow.protocol.Site;
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

  StoreStats stats();

  @Override
  void close();
}
