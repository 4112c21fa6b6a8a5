package dev.whyslow.daemon.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import dev.whyslow.protocol.AgentStats;
import dev.whyslow.protocol.ErrorCode;
import dev.whyslow.protocol.Label;
import dev.whyslow.protocol.Run;
import dev.whyslow.protocol.Site;
import dev.whyslow.storage.RunOrigin;
import dev.whyslow.storage.RunQuery;
import dev.whyslow.storage.ServiceSummary;
import dev.whyslow.storage.StoreStats;
import dev.whyslow.storage.StoredRun;
import dev.whyslow.storage.WhyslowStore;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class DaemonMetricsTest {
  private final DaemonMetrics metrics = new DaemonMetrics("0.1.0");

  @AfterEach
  void close() {
    metrics.close();
  }

  @Test
  void ingestCountersUsePrometheusNamesAndBoundedLabels() {
    metrics.frameReceived("runs");
    metrics.frameReceived("something-new");
    metrics.runsStored(3);
    metrics.sitesStored(2);
    metrics.rejected(ErrorCode.UNKNOWN_SITE);
    metrics.recordWrite(3_000_000);

    assertThat(metrics.scrape())
        .contains("whyslow_ingest_frames_total{type=\"runs\",} 1.0")
        .contains("whyslow_ingest_frames_total{type=\"other\",} 1.0")
        .contains("whyslow_ingest_runs_total 3.0")
        .contains("whyslow_ingest_sites_total 2.0")
        .contains("whyslow_ingest_rejected_total{reason=\"unknown_site\",} 1.0")
        .contains("whyslow_ingest_rejected_total{reason=\"bad_token\",} 0.0")
        .contains("whyslow_ingest_write_seconds_bucket{le=\"0.001\",} 0.0")
        .contains("whyslow_ingest_write_seconds_bucket{le=\"0.005\",} 1.0")
        .contains("whyslow_ingest_write_seconds_bucket{le=\"+Inf\",} 1.0")
        .contains("whyslow_build_info{version=\"0.1.0\",} 1.0")
        .contains("jvm_memory_used_bytes");
  }

  @Test
  void agentCountersArePerService() {
    metrics.agentCounters("checkout", 2, 100);
    metrics.agentCounters("checkout", 1, 50);
    metrics.agentCounters("search", 0, 7);
    assertThat(metrics.scrape())
        .contains("whyslow_agent_runs_dropped_total{service=\"checkout\",} 3.0")
        .contains("whyslow_agent_samples_recorded_total{service=\"checkout\",} 150.0")
        .contains("whyslow_agent_samples_recorded_total{service=\"search\",} 7.0");
  }

  @Test
  void storeStatisticsAndEnginePropertiesAreReadAtScrapeTime() {
    StatsStore store =
        new StatsStore(
            new StoreStats(
                12, 3, 4096, Map.of("pending_compaction_bytes", 77L, "stall_micros", 2_500_000L)));
    metrics.bindStore(store);
    String text = metrics.scrape();
    assertThat(text)
        .contains("whyslow_store_up 1.0")
        .contains("whyslow_store_runs 12.0")
        .contains("whyslow_store_sites 3.0")
        .contains("whyslow_store_disk_bytes 4096.0")
        .contains("whyslow_rocksdb_pending_compaction_bytes 77.0")
        .contains("# TYPE whyslow_rocksdb_stall_seconds_total counter")
        .contains("whyslow_rocksdb_stall_seconds_total 2.5");

    store.failing = true;
    assertThat(metrics.scrape())
        .contains("whyslow_store_up 0.0")
        .doesNotContain("whyslow_store_runs");
  }

  @Test
  void engineKeysBecomeMetricNames() {
    assertThat(StoreCollector.engineMetricName("num_files_at_level0"))
        .isEqualTo("whyslow_rocksdb_num_files_at_level0");
    assertThat(StoreCollector.engineMetricName("rocksdb.block-cache-usage"))
        .isEqualTo("whyslow_rocksdb_block_cache_usage");
  }

  /** A store that only answers {@link #stats()}. */
  private static final class StatsStore implements WhyslowStore {
    private final StoreStats stats;
    volatile boolean failing;

    StatsStore(StoreStats stats) {
      this.stats = stats;
    }

    @Override
    public StoreStats stats() {
      if (failing) {
        throw new IllegalStateException("disk gone");
      }
      return stats;
    }

    @Override
    public void putSites(String service, Collection<Site> sites) {
      throw new UnsupportedOperationException();
    }

    @Override
    public List<Site> sites(String service) {
      throw new UnsupportedOperationException();
    }

    @Override
    public Optional<Site> site(String service, long siteKey) {
      throw new UnsupportedOperationException();
    }

    @Override
    public List<StoredRun> putRuns(RunOrigin origin, List<Run> runs) {
      throw new UnsupportedOperationException();
    }

    @Override
    public List<StoredRun> runs(RunQuery query) {
      throw new UnsupportedOperationException();
    }

    @Override
    public Optional<StoredRun> run(long runId) {
      throw new UnsupportedOperationException();
    }

    @Override
    public long relabel(RunQuery query, Label label) {
      throw new UnsupportedOperationException();
    }

    @Override
    public long relabel(Collection<Long> runIds, Label label) {
      throw new UnsupportedOperationException();
    }

    @Override
    public List<ServiceSummary> services() {
      throw new UnsupportedOperationException();
    }

    @Override
    public void putAgentStats(RunOrigin origin, AgentStats stats) {
      throw new UnsupportedOperationException();
    }

    @Override
    public Optional<AgentStats> agentStats(RunOrigin origin) {
      throw new UnsupportedOperationException();
    }

    @Override
    public long deleteRunsBefore(long cutoffEpochMillis) {
      throw new UnsupportedOperationException();
    }

    @Override
    public void putUnitStats(RunOrigin origin, dev.whyslow.protocol.UnitStats stats) {
      throw new UnsupportedOperationException();
    }

    @Override
    public List<dev.whyslow.storage.StoredUnitStats> unitStats(
        dev.whyslow.storage.UnitStatsQuery query) {
      throw new UnsupportedOperationException();
    }

    @Override
    public void putThresholds(String service, Collection<dev.whyslow.storage.StoredThreshold> t) {
      throw new UnsupportedOperationException();
    }

    @Override
    public List<dev.whyslow.storage.StoredThreshold> thresholds(String service) {
      throw new UnsupportedOperationException();
    }

    @Override
    public List<dev.whyslow.storage.StoredViolation> putViolations(
        RunOrigin origin, List<dev.whyslow.protocol.Violation> v) {
      throw new UnsupportedOperationException();
    }

    @Override
    public List<dev.whyslow.storage.StoredViolation> violations(
        dev.whyslow.storage.ViolationQuery query) {
      throw new UnsupportedOperationException();
    }

    @Override
    public Optional<dev.whyslow.storage.StoredViolation> violation(long violationId) {
      throw new UnsupportedOperationException();
    }

    @Override
    public void putUnitTypes(String service, Collection<dev.whyslow.protocol.UnitTypeInfo> types) {
      throw new UnsupportedOperationException();
    }

    @Override
    public List<dev.whyslow.protocol.UnitTypeInfo> unitTypes(String service) {
      throw new UnsupportedOperationException();
    }

    @Override
    public long deleteUnitStatsBefore(long cutoffEpochMillis) {
      throw new UnsupportedOperationException();
    }

    @Override
    public long deleteViolationsBefore(long cutoffEpochMillis) {
      throw new UnsupportedOperationException();
    }

    @Override
    public void close() {}
  }
}
