package dev.whyslow.daemon.units;

import dev.whyslow.daemon.agent.AgentRegistry;
import dev.whyslow.daemon.agent.ConnectedAgent;
import dev.whyslow.daemon.config.ThresholdSettings;
import dev.whyslow.daemon.metrics.UnitMetrics;
import dev.whyslow.protocol.SetThresholds;
import dev.whyslow.protocol.Threshold;
import dev.whyslow.protocol.UnitHistogram;
import dev.whyslow.storage.ServiceSummary;
import dev.whyslow.storage.StoredThreshold;
import dev.whyslow.storage.StoredUnitStats;
import dev.whyslow.storage.UnitHistograms;
import dev.whyslow.storage.UnitStatsQuery;
import dev.whyslow.storage.WhyslowStore;
import io.netty.channel.Channel;
import java.lang.System.Logger.Level;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * Recomputes unit thresholds every {@code thresholds.interval}: per service and unit type, the
 * histograms of the last {@code thresholds.window} are merged and, with enough units, give a new
 * threshold ({@link ThresholdCalculator}). Thresholds that moved by more than {@link #TOLERANCE}
 * are stored and the service's whole set is pushed to its connected agents; every agent also gets
 * the set when it connects. A type whose traffic stops keeps its last threshold.
 */
public final class ThresholdService implements Runnable {
  private static final System.Logger LOG = System.getLogger(ThresholdService.class.getName());

  /** Relative change below which a recomputed threshold is not stored or pushed again. */
  public static final double TOLERANCE = 0.01;

  private final WhyslowStore store;
  private final AgentRegistry agents;
  private final UnitMetrics metrics;
  private final ThresholdSettings settings;
  private final ThresholdCalculator calculator;
  private final Clock clock;
  private final ConcurrentMap<String, Map<String, StoredThreshold>> current =
      new ConcurrentHashMap<>();

  public ThresholdService(
      WhyslowStore store,
      AgentRegistry agents,
      UnitMetrics metrics,
      ThresholdSettings settings,
      Clock clock) {
    this.store = store;
    this.agents = agents;
    this.metrics = metrics;
    this.settings = settings;
    this.calculator = new ThresholdCalculator(settings);
    this.clock = clock;
  }

  /**
   * Loads the stored thresholds and sends them to every agent that connects from now on. Call
   * before agents can connect.
   */
  public void start() {
    for (ServiceSummary s : store.services()) {
      load(s.service());
    }
    agents.onRegister(this::greet);
  }

  /** Runs {@link #run()} every {@code thresholds.interval}. */
  public ScheduledFuture<?> schedule(ScheduledExecutorService scheduler) {
    long period = settings.interval().toMillis();
    return scheduler.scheduleAtFixedRate(this, period, period, TimeUnit.MILLISECONDS);
  }

  /** The current thresholds of a service, by unit type. */
  public List<StoredThreshold> thresholds(String service) {
    Map<String, StoredThreshold> map = current.get(service);
    return map == null ? List.of() : List.copyOf(map.values());
  }

  public ThresholdSettings settings() {
    return settings;
  }

  /** One pass over every service; returns the services whose thresholds changed. */
  public Set<String> recompute() {
    Set<String> services = new TreeSet<>(agents.servicesSeen());
    store.services().forEach(s -> services.add(s.service()));
    Set<String> changed = new TreeSet<>();
    long now = clock.millis();
    for (String service : services) {
      if (recompute(service, now)) {
        changed.add(service);
      }
    }
    return changed;
  }

  @Override
  public void run() {
    try {
      recompute();
    } catch (RuntimeException e) {
      // Keep the schedule alive: the next pass tries again.
      LOG.log(Level.ERROR, "threshold recomputation failed; retrying in " + settings.interval(), e);
    }
  }

  /** Merges a service's window per unit type; stores and pushes what changed. */
  boolean recompute(String service, long nowMillis) {
    Map<String, StoredThreshold> known = load(service);
    long from = nowMillis - settings.window().toMillis();
    Map<String, List<UnitHistogram>> byType = new TreeMap<>();
    for (StoredUnitStats s : store.unitStats(UnitStatsQuery.of(service, from, nowMillis + 1))) {
      byType.computeIfAbsent(s.unitType(), t -> new ArrayList<>()).add(s.histogram());
    }
    List<StoredThreshold> changes = new ArrayList<>();
    for (Map.Entry<String, List<UnitHistogram>> e : byType.entrySet()) {
      UnitHistogram merged = UnitHistograms.merge(e.getKey(), e.getValue());
      OptionalLong value = calculator.threshold(merged);
      if (value.isEmpty()) {
        continue;
      }
      StoredThreshold previous = known.get(e.getKey());
      if (previous == null || moved(previous.thresholdNanos(), value.getAsLong())) {
        changes.add(new StoredThreshold(e.getKey(), value.getAsLong(), merged.count(), nowMillis));
      }
    }
    if (changes.isEmpty()) {
      return false;
    }
    store.putThresholds(service, changes);
    Map<String, StoredThreshold> updated = new TreeMap<>(known);
    changes.forEach(t -> updated.put(t.unitType(), t));
    current.put(service, Map.copyOf(updated));
    changes.forEach(t -> metrics.threshold(service, t.unitType(), t.thresholdNanos()));
    int sent = agents.send(service, message(updated));
    LOG.log(
        Level.DEBUG,
        "thresholds of {0}: {1} changed, pushed to {2} agents",
        service,
        changes.size(),
        sent);
    return true;
  }

  private static boolean moved(long before, long after) {
    return Math.abs(after - before) > TOLERANCE * Math.max(before, 1);
  }

  private Map<String, StoredThreshold> load(String service) {
    Map<String, StoredThreshold> map = current.get(service);
    if (map != null) {
      return map;
    }
    Map<String, StoredThreshold> loaded = new TreeMap<>();
    for (StoredThreshold t : store.thresholds(service)) {
      loaded.put(t.unitType(), t);
      metrics.threshold(service, t.unitType(), t.thresholdNanos());
    }
    current.putIfAbsent(service, Map.copyOf(loaded));
    return current.get(service);
  }

  /** On the agent's event loop right after its handshake: no store access here. */
  private void greet(ConnectedAgent agent, Channel channel) {
    Map<String, StoredThreshold> map = current.get(agent.service());
    if (map != null && !map.isEmpty()) {
      channel.writeAndFlush(message(map));
    }
  }

  private static SetThresholds message(Map<String, StoredThreshold> thresholds) {
    List<Threshold> list = new ArrayList<>();
    new TreeMap<>(thresholds).values().forEach(t -> list.add(t.toThreshold()));
    return new SetThresholds(list);
  }

  /** The threshold of one unit type, if it has one. */
  public Optional<StoredThreshold> threshold(String service, String unitType) {
    return Optional.ofNullable(current.getOrDefault(service, Map.of()).get(unitType));
  }
}
