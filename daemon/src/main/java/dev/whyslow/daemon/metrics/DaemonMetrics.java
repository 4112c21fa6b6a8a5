package dev.whyslow.daemon.metrics;

import dev.whyslow.protocol.ErrorCode;
import dev.whyslow.storage.WhyslowStore;
import io.micrometer.core.instrument.Clock;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.binder.jvm.ClassLoaderMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmGcMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmMemoryMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmThreadMetrics;
import io.micrometer.core.instrument.binder.system.ProcessorMetrics;
import io.micrometer.core.instrument.binder.system.UptimeMetrics;
import io.micrometer.prometheus.PrometheusConfig;
import io.micrometer.prometheus.PrometheusMeterRegistry;
import io.prometheus.client.CollectorRegistry;
import io.prometheus.client.exporter.common.TextFormat;
import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.EnumMap;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * whyslowd's own metrics, all in one {@link CollectorRegistry} that {@code /metrics} renders.
 * Micrometer meters (ingest counters, the write histogram, JVM binders) and plain simpleclient
 * collectors (store statistics read at scrape time) share it. Labels stay bounded: frame type,
 * reject reason and service, never instance, run or site.
 */
// The simpleclient flavour of Micrometer's Prometheus registry is deprecated in favour of the
// Prometheus 1.x client; the project pins simpleclient 0.16 on purpose (text format 0.0.4).
@SuppressWarnings("deprecation")
public final class DaemonMetrics implements AutoCloseable {
  /** Frame types counted by {@code whyslow_ingest_frames_total{type}}. */
  public static final String[] FRAME_TYPES = {
    "hello", "sites", "runs", "agent_stats", "unit_stats", "violations", "unit_types", "other"
  };

  private final CollectorRegistry collectorRegistry = new CollectorRegistry(true);
  private final PrometheusMeterRegistry meterRegistry;
  private final Map<String, Counter> frames = new java.util.HashMap<>();
  private final Map<ErrorCode, Counter> rejected = new EnumMap<>(ErrorCode.class);
  private final Counter runs;
  private final Counter sites;
  private final Timer writes;
  private final JvmGcMetrics gcMetrics = new JvmGcMetrics();
  private final UnitMetrics units = new UnitMetrics(UnitMetrics.DEFAULT_MAX_SERIES);

  public DaemonMetrics(String version) {
    meterRegistry =
        new PrometheusMeterRegistry(PrometheusConfig.DEFAULT, collectorRegistry, Clock.SYSTEM);
    for (String type : FRAME_TYPES) {
      frames.put(
          type,
          Counter.builder("whyslow.ingest.frames")
              .description("Frames received from agents, by message type")
              .tag("type", type)
              .register(meterRegistry));
    }
    for (ErrorCode code : ErrorCode.values()) {
      rejected.put(
          code,
          Counter.builder("whyslow.ingest.rejected")
              .description("Agent frames, batches or connections refused, by reason")
              .tag("reason", code.name().toLowerCase(Locale.ROOT))
              .register(meterRegistry));
    }
    runs =
        Counter.builder("whyslow.ingest.runs")
            .description("Runs written to the store")
            .register(meterRegistry);
    sites =
        Counter.builder("whyslow.ingest.sites")
            .description("Site records written to the store")
            .register(meterRegistry);
    writes =
        Timer.builder("whyslow.ingest.write")
            .description("Time to write one agent batch to the store")
            .serviceLevelObjectives(
                Duration.ofMillis(1),
                Duration.ofMillis(5),
                Duration.ofMillis(25),
                Duration.ofMillis(100),
                Duration.ofMillis(500),
                Duration.ofSeconds(2))
            .register(meterRegistry);
    Gauge.builder("whyslow.build.info", () -> 1)
        .description("Always 1; the version label says which whyslowd is running")
        .tag("version", version)
        .register(meterRegistry);
    collectorRegistry.register(units);
    new ClassLoaderMetrics().bindTo(meterRegistry);
    new JvmMemoryMetrics().bindTo(meterRegistry);
    gcMetrics.bindTo(meterRegistry);
    new JvmThreadMetrics().bindTo(meterRegistry);
    new ProcessorMetrics().bindTo(meterRegistry);
    new UptimeMetrics().bindTo(meterRegistry);
  }

  /** Unit durations, thresholds, violations and agents per service. */
  public UnitMetrics units() {
    return units;
  }

  public CollectorRegistry collectorRegistry() {
    return collectorRegistry;
  }

  public MeterRegistry meterRegistry() {
    return meterRegistry;
  }

  /** Counts one frame; {@code type} is one of {@link #FRAME_TYPES} (anything else is "other"). */
  public void frameReceived(String type) {
    frames.getOrDefault(type, frames.get("other")).increment();
  }

  public void rejected(ErrorCode reason) {
    rejected.get(reason).increment();
  }

  public void runsStored(int count) {
    runs.increment(count);
  }

  public void sitesStored(int count) {
    sites.increment(count);
  }

  public void recordWrite(long nanos) {
    writes.record(nanos, TimeUnit.NANOSECONDS);
  }

  /**
   * Adds what an agent reported since its previous statistics. Service names are bounded by the
   * deployment, so they are a safe label.
   */
  public void agentCounters(String service, long runsDropped, long samplesRecorded) {
    Counter.builder("whyslow.agent.runs.dropped")
        .description("Runs agents dropped because their queue was full or the daemon unreachable")
        .tag("service", service)
        .register(meterRegistry)
        .increment(runsDropped);
    Counter.builder("whyslow.agent.samples.recorded")
        .description("Predicate evaluations agents sampled")
        .tag("service", service)
        .register(meterRegistry)
        .increment(samplesRecorded);
  }

  public void gauge(String name, String description, Supplier<Number> value) {
    Gauge.builder(name, value).description(description).register(meterRegistry);
  }

  /** Exports the store's sizes and engine properties, read at scrape time. */
  public void bindStore(WhyslowStore store) {
    collectorRegistry.register(new StoreCollector(store));
  }

  /** Everything in Prometheus text format 0.0.4. */
  public String scrape() {
    StringWriter out = new StringWriter();
    try {
      TextFormat.write004(out, collectorRegistry.metricFamilySamples());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return out.toString();
  }

  @Override
  public void close() {
    gcMetrics.close();
    meterRegistry.close();
  }
}
