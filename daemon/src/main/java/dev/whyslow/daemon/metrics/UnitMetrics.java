package dev.whyslow.daemon.metrics;

import dev.whyslow.protocol.UnitHistogram;
import io.prometheus.client.Collector;
import io.prometheus.client.CounterMetricFamily;
import io.prometheus.client.GaugeMetricFamily;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;

/**
 * The unit metrics, labelled by {@code service} and {@code unit_type} only: {@code
 * whyslow_unit_duration_seconds} (a classic histogram whose buckets are the agents' shared bounds,
 * summed over every histogram ingested since the daemon started), {@code
 * whyslow_unit_threshold_seconds}, {@code whyslow_unit_violations_total} and {@code
 * whyslow_service_agents_connected{service}}. At most {@code maxSeries} (service, unit type) pairs
 * are exported; updates for more are counted in {@code whyslow_unit_series_truncated_total}.
 */
public final class UnitMetrics extends Collector {
  public static final int DEFAULT_MAX_SERIES = 1000;

  private static final List<String> LABELS = List.of("service", "unit_type");
  private static final String[] LE = bucketLabels();

  private final int maxSeries;
  private final ConcurrentMap<Series, Totals> series = new ConcurrentHashMap<>();
  private final AtomicLong truncated = new AtomicLong();
  private volatile Supplier<Map<String, Integer>> agentsByService = Map::of;

  private record Series(String service, String unitType) {}

  /** Running totals of one series; guarded by its own monitor. */
  private static final class Totals {
    final long[] buckets = new long[UnitHistogram.BUCKETS];
    long count;
    long sumNanos;
    long violations;
    double thresholdSeconds = Double.NaN;
  }

  public UnitMetrics(int maxSeries) {
    this.maxSeries = maxSeries;
  }

  /** Where the per-service agent counts come from (read at scrape time). */
  public void agentsByService(Supplier<Map<String, Integer>> source) {
    this.agentsByService = source;
  }

  /** Adds one agent's histogram of one interval. */
  public void histogram(String service, UnitHistogram h) {
    Totals t = totals(service, h.unitType());
    if (t == null) {
      return;
    }
    long[] b = h.bucketCounts();
    synchronized (t) {
      for (int i = 0; i < b.length; i++) {
        t.buckets[i] += b[i];
      }
      t.count += h.count();
      t.sumNanos += h.sumNanos();
    }
  }

  /** Counts violations ingested for a unit type. */
  public void violations(String service, String unitType, long n) {
    Totals t = totals(service, unitType);
    if (t != null) {
      synchronized (t) {
        t.violations += n;
      }
    }
  }

  /** Sets the current threshold of a unit type. */
  public void threshold(String service, String unitType, long nanos) {
    Totals t = totals(service, unitType);
    if (t != null) {
      synchronized (t) {
        t.thresholdSeconds = nanos / 1e9;
      }
    }
  }

  /** Updates not exported because {@code maxSeries} pairs already were. */
  public long truncated() {
    return truncated.get();
  }

  private Totals totals(String service, String unitType) {
    Series key = new Series(service, unitType);
    Totals t = series.get(key);
    if (t != null) {
      return t;
    }
    if (series.size() >= maxSeries) {
      truncated.incrementAndGet();
      return null;
    }
    // Two threads may both pass the size check; the cap is approximate by at most a few series.
    return series.computeIfAbsent(key, k -> new Totals());
  }

  @Override
  public List<MetricFamilySamples> collect() {
    List<MetricFamilySamples.Sample> duration = new ArrayList<>();
    GaugeMetricFamily threshold =
        new GaugeMetricFamily(
            "whyslow_unit_threshold_seconds",
            "Current threshold of a unit type: units running longer are violations",
            LABELS);
    CounterMetricFamily violations =
        new CounterMetricFamily(
            "whyslow_unit_violations",
            "Threshold violations agents reported, by service and unit type",
            LABELS);
    for (Map.Entry<Series, Totals> e : series.entrySet()) {
      List<String> labels = List.of(e.getKey().service(), e.getKey().unitType());
      Totals t = e.getValue();
      synchronized (t) {
        long cumulative = 0;
        for (int i = 0; i < t.buckets.length; i++) {
          cumulative += t.buckets[i];
          duration.add(
              new MetricFamilySamples.Sample(
                  "whyslow_unit_duration_seconds_bucket",
                  List.of("service", "unit_type", "le"),
                  List.of(labels.get(0), labels.get(1), LE[i]),
                  cumulative));
        }
        duration.add(
            new MetricFamilySamples.Sample(
                "whyslow_unit_duration_seconds_count", LABELS, labels, t.count));
        duration.add(
            new MetricFamilySamples.Sample(
                "whyslow_unit_duration_seconds_sum", LABELS, labels, t.sumNanos / 1e9));
        violations.addMetric(labels, t.violations);
        if (!Double.isNaN(t.thresholdSeconds)) {
          threshold.addMetric(labels, t.thresholdSeconds);
        }
      }
    }
    GaugeMetricFamily agents =
        new GaugeMetricFamily(
            "whyslow_service_agents_connected",
            "Agents of a service connected now; 0 for services seen since the daemon started",
            List.of("service"));
    agentsByService.get().forEach((service, n) -> agents.addMetric(List.of(service), n));
    List<MetricFamilySamples> families = new ArrayList<>();
    families.add(
        new MetricFamilySamples(
            "whyslow_unit_duration_seconds",
            Type.HISTOGRAM,
            "Durations of units of work, from the agents' per-interval histograms",
            duration));
    families.add(threshold);
    families.add(violations);
    families.add(agents);
    families.add(
        new CounterMetricFamily(
            "whyslow_unit_series_truncated",
            "Unit metric updates left out because "
                + maxSeries
                + " (service, unit type) series were already exported",
            truncated.get()));
    return families;
  }

  private static String[] bucketLabels() {
    long[] bounds = UnitHistogram.BOUNDS_NANOS;
    String[] out = new String[bounds.length + 1];
    for (int i = 0; i < bounds.length; i++) {
      out[i] = Collector.doubleToGoString(bounds[i] / 1e9);
    }
    out[bounds.length] = "+Inf";
    return out;
  }
}
