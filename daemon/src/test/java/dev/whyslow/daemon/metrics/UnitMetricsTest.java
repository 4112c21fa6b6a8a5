package dev.whyslow.daemon.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import dev.whyslow.storage.UnitHistograms;
import io.prometheus.client.CollectorRegistry;
import java.util.Map;
import org.junit.jupiter.api.Test;

class UnitMetricsTest {
  @Test
  void seriesBeyondTheCapAreCountedNotExported() {
    UnitMetrics metrics = new UnitMetrics(2);
    CollectorRegistry registry = new CollectorRegistry();
    registry.register(metrics);

    metrics.histogram("shop", UnitHistograms.empty("a"));
    metrics.violations("shop", "b", 3);
    metrics.threshold("shop", "c", 5_000_000);
    metrics.violations("shop", "c", 1);

    assertThat(metrics.truncated()).isEqualTo(2);
    assertThat(registry.getSampleValue("whyslow_unit_series_truncated_total")).isEqualTo(2.0);
    assertThat(
            registry.getSampleValue(
                "whyslow_unit_violations_total",
                new String[] {"service", "unit_type"},
                new String[] {"shop", "b"}))
        .isEqualTo(3.0);
    assertThat(
            registry.getSampleValue(
                "whyslow_unit_threshold_seconds",
                new String[] {"service", "unit_type"},
                new String[] {"shop", "c"}))
        .isNull();
  }

  @Test
  void agentsPerServiceComeFromTheSourceAtScrapeTime() {
    UnitMetrics metrics = new UnitMetrics(10);
    CollectorRegistry registry = new CollectorRegistry();
    registry.register(metrics);
    metrics.agentsByService(() -> Map.of("shop", 0, "cart", 2));

    assertThat(
            registry.getSampleValue(
                "whyslow_service_agents_connected",
                new String[] {"service"},
                new String[] {"shop"}))
        .isEqualTo(0.0);
    assertThat(
            registry.getSampleValue(
                "whyslow_service_agents_connected",
                new String[] {"service"},
                new String[] {"cart"}))
        .isEqualTo(2.0);
  }
}
