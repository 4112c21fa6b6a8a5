package dev.whyslow.storage;

import dev.whyslow.protocol.AgentStats;
import dev.whyslow.protocol.Label;
import dev.whyslow.protocol.Run;
import dev.whyslow.protocol.Site;
import dev.whyslow.protocol.UnitHistogram;
import dev.whyslow.protocol.UnitStats;
import dev.whyslow.protocol.UnitTypeInfo;
import dev.whyslow.protocol.Violation;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * A {@link WhyslowStore} in plain collections behind one lock, for unit tests of the daemon. It
 * behaves like the RocksDB store in everything {@code WhyslowStoreContract} checks; nothing
 * survives the object.
 */
public final class InMemoryStore implements WhyslowStore {
  private final Map<String, TreeMap<Long, Site>> sitesByService = new HashMap<>();
  private final TreeMap<Long, StoredRun> runs = new TreeMap<>();
  private final Map<RunOrigin, AgentStats> agentStats = new HashMap<>();
  private final Map<String, Long> lastRunStartByService = new HashMap<>();
  private final Map<String, Set<String>> instancesByService = new HashMap<>();
  private final Map<String, Set<String>> versionsByService = new HashMap<>();
  private final TreeMap<String, StoredUnitStats> unitStats = new TreeMap<>();
  private final Map<String, TreeMap<String, StoredThreshold>> thresholds = new HashMap<>();
  private final TreeMap<Long, StoredViolation> violations = new TreeMap<>();
  private final Map<String, TreeMap<String, UnitTypeInfo>> unitTypes = new HashMap<>();
  private long nextSequence;
  private long nextViolationSequence;
  private boolean closed;

  @Override
  public synchronized void putSites(String service, Collection<Site> sites) {
    checkOpen();
    StoreLimits.checkService(service);
    if (sites.isEmpty()) {
      return;
    }
    TreeMap<Long, Site> map =
        sitesByService.computeIfAbsent(service, s -> new TreeMap<>(Long::compareUnsigned));
    for (Site site : sites) {
      map.put(site.key(), site);
    }
  }

  @Override
  public synchronized List<Site> sites(String service) {
    checkOpen();
    TreeMap<Long, Site> map = sitesByService.get(service);
    return map == null ? List.of() : List.copyOf(map.values());
  }

  @Override
  public synchronized Optional<Site> site(String service, long siteKey) {
    checkOpen();
    TreeMap<Long, Site> map = sitesByService.get(service);
    return map == null ? Optional.empty() : Optional.ofNullable(map.get(siteKey));
  }

  @Override
  public synchronized List<StoredRun> putRuns(RunOrigin origin, List<Run> batch) {
    checkOpen();
    StoreLimits.checkOrigin(origin);
    for (Run run : batch) {
      StoreLimits.checkRun(origin, run);
    }
    List<StoredRun> stored = new ArrayList<>(batch.size());
    for (Run run : batch) {
      long id;
      do {
        id = RunIds.of(run.startEpochMillis(), nextSequence++);
      } while (runs.containsKey(id));
      StoredRun s = new StoredRun(id, origin, run);
      runs.put(id, s);
      stored.add(s);
      lastRunStartByService.merge(origin.service(), run.startEpochMillis(), Math::max);
      noteOrigin(origin);
    }
    return List.copyOf(stored);
  }

  @Override
  public synchronized List<StoredRun> runs(RunQuery query) {
    checkOpen();
    List<StoredRun> out = new ArrayList<>();
    for (StoredRun s : window(query).values()) {
      if (out.size() >= query.limit()) {
        break;
      }
      if (query.matches(s)) {
        out.add(s);
      }
    }
    return List.copyOf(out);
  }

  @Override
  public synchronized Optional<StoredRun> run(long runId) {
    checkOpen();
    return Optional.ofNullable(runs.get(runId));
  }

  @Override
  public synchronized long relabel(RunQuery query, Label label) {
    checkOpen();
    long n = 0;
    for (Map.Entry<Long, StoredRun> e : window(query).entrySet()) {
      if (query.matches(e.getValue())) {
        e.setValue(e.getValue().withLabel(label));
        n++;
      }
    }
    return n;
  }

  @Override
  public synchronized long relabel(Collection<Long> runIds, Label label) {
    checkOpen();
    long n = 0;
    for (long id : new HashSet<>(runIds)) {
      StoredRun s = runs.get(id);
      if (s != null) {
        runs.put(id, s.withLabel(label));
        n++;
      }
    }
    return n;
  }

  @Override
  public synchronized List<ServiceSummary> services() {
    checkOpen();
    Set<String> names = new TreeSet<>(sitesByService.keySet());
    names.addAll(instancesByService.keySet());
    Map<String, Long> runCounts = new HashMap<>();
    for (StoredRun s : runs.values()) {
      runCounts.merge(s.origin().service(), 1L, Long::sum);
    }
    List<ServiceSummary> out = new ArrayList<>();
    for (String name : names) {
      TreeMap<Long, Site> sites = sitesByService.get(name);
      out.add(
          new ServiceSummary(
              name,
              Collections.unmodifiableSortedSet(
                  new TreeSet<>(instancesByService.getOrDefault(name, Set.of()))),
              Collections.unmodifiableSortedSet(
                  new TreeSet<>(versionsByService.getOrDefault(name, Set.of()))),
              sites == null ? 0 : sites.size(),
              runCounts.getOrDefault(name, 0L),
              lastRunStartByService.getOrDefault(name, 0L)));
    }
    return List.copyOf(out);
  }

  @Override
  public synchronized void putAgentStats(RunOrigin origin, AgentStats stats) {
    checkOpen();
    StoreLimits.checkOrigin(origin);
    agentStats.put(origin, stats);
    noteOrigin(origin);
  }

  @Override
  public synchronized Optional<AgentStats> agentStats(RunOrigin origin) {
    checkOpen();
    return Optional.ofNullable(agentStats.get(origin));
  }

  @Override
  public synchronized long deleteRunsBefore(long cutoffEpochMillis) {
    checkOpen();
    SortedMap<Long, StoredRun> old =
        cutoffEpochMillis > RunIds.MAX_EPOCH_MILLIS
            ? runs
            : runs.headMap(RunIds.firstIdAt(cutoffEpochMillis));
    long n = old.size();
    old.clear();
    return n;
  }

  @Override
  public synchronized void putUnitStats(RunOrigin origin, UnitStats stats) {
    checkOpen();
    StoreLimits.checkOrigin(origin);
    StoreLimits.checkUnitStats(origin, stats);
    for (UnitHistogram h : stats.histograms()) {
      // The same order as the RocksDB key: interval start, service, unit type, instance.
      String key =
          String.format(
              "%019d\u0000%s\u0000%s\u0000%s",
              stats.intervalStartEpochMillis(), origin.service(), h.unitType(), origin.instance());
      unitStats.put(
          key,
          new StoredUnitStats(origin, stats.intervalStartEpochMillis(), stats.intervalMillis(), h));
    }
  }

  @Override
  public synchronized List<StoredUnitStats> unitStats(UnitStatsQuery query) {
    checkOpen();
    return unitStats.values().stream().filter(query::matches).toList();
  }

  @Override
  public synchronized void putThresholds(String service, Collection<StoredThreshold> values) {
    checkOpen();
    StoreLimits.checkService(service);
    values.forEach(t -> StoreLimits.checkUnitType(t.unitType()));
    TreeMap<String, StoredThreshold> map =
        thresholds.computeIfAbsent(service, s -> new TreeMap<>());
    values.forEach(t -> map.put(t.unitType(), t));
  }

  @Override
  public synchronized List<StoredThreshold> thresholds(String service) {
    checkOpen();
    TreeMap<String, StoredThreshold> map = thresholds.get(service);
    return map == null ? List.of() : List.copyOf(map.values());
  }

  @Override
  public synchronized List<StoredViolation> putViolations(RunOrigin origin, List<Violation> batch) {
    checkOpen();
    StoreLimits.checkOrigin(origin);
    batch.forEach(v -> StoreLimits.checkViolation(origin, v));
    List<StoredViolation> stored = new ArrayList<>();
    for (Violation v : batch) {
      long id;
      do {
        id = ViolationIds.of(v.detectedEpochMillis(), nextViolationSequence++);
      } while (violations.containsKey(id));
      StoredViolation s = new StoredViolation(id, origin, v);
      violations.put(id, s);
      stored.add(s);
    }
    return List.copyOf(stored);
  }

  @Override
  public synchronized List<StoredViolation> violations(ViolationQuery query) {
    checkOpen();
    return violations.descendingMap().values().stream()
        .filter(query::matches)
        .limit(query.limit())
        .toList();
  }

  @Override
  public synchronized Optional<StoredViolation> violation(long violationId) {
    checkOpen();
    return Optional.ofNullable(violations.get(violationId));
  }

  @Override
  public synchronized void putUnitTypes(String service, Collection<UnitTypeInfo> types) {
    checkOpen();
    StoreLimits.checkService(service);
    types.forEach(t -> StoreLimits.checkUnitType(t.name()));
    TreeMap<String, UnitTypeInfo> map = unitTypes.computeIfAbsent(service, s -> new TreeMap<>());
    types.forEach(t -> map.put(t.name(), t));
  }

  @Override
  public synchronized List<UnitTypeInfo> unitTypes(String service) {
    checkOpen();
    TreeMap<String, UnitTypeInfo> map = unitTypes.get(service);
    return map == null ? List.of() : List.copyOf(map.values());
  }

  @Override
  public synchronized long deleteUnitStatsBefore(long cutoffEpochMillis) {
    checkOpen();
    long before = unitStats.size();
    unitStats.values().removeIf(s -> s.intervalStartEpochMillis() < cutoffEpochMillis);
    return before - unitStats.size();
  }

  @Override
  public synchronized long deleteViolationsBefore(long cutoffEpochMillis) {
    checkOpen();
    long before = violations.size();
    violations.values().removeIf(v -> v.violation().detectedEpochMillis() < cutoffEpochMillis);
    return before - violations.size();
  }

  @Override
  public synchronized StoreStats stats() {
    checkOpen();
    long siteCount = sitesByService.values().stream().mapToLong(Map::size).sum();
    return new StoreStats(runs.size(), siteCount, 0, Map.of());
  }

  @Override
  public synchronized void close() {
    closed = true;
  }

  private void noteOrigin(RunOrigin origin) {
    instancesByService
        .computeIfAbsent(origin.service(), s -> new HashSet<>())
        .add(origin.instance());
    versionsByService
        .computeIfAbsent(origin.service(), s -> new HashSet<>())
        .add(origin.serviceVersion());
  }

  private SortedMap<Long, StoredRun> window(RunQuery query) {
    long from = RunIds.firstIdAt(query.fromInclusiveMillis());
    if (query.toExclusiveMillis() > RunIds.MAX_EPOCH_MILLIS) {
      return runs.tailMap(from);
    }
    long to = RunIds.firstIdAt(query.toExclusiveMillis());
    return from >= to ? Collections.emptySortedMap() : runs.subMap(from, to);
  }

  private void checkOpen() {
    if (closed) {
      throw new IllegalStateException("the store is closed");
    }
  }
}
