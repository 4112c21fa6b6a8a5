package dev.whyslow.daemon.metrics;

import dev.whyslow.storage.StoreStats;
import dev.whyslow.storage.WhyslowStore;
import io.prometheus.client.Collector;
import io.prometheus.client.CounterMetricFamily;
import io.prometheus.client.GaugeMetricFamily;
import java.lang.System.Logger.Level;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Reads {@link WhyslowStore#stats()} once per scrape and exports sizes plus the engine's own
 * properties ({@code whyslow_rocksdb_pending_compaction_bytes}, ...). A failing store yields {@code
 * whyslow_store_up 0} instead of a failed scrape, so the alert can say what is wrong.
 */
final class StoreCollector extends Collector implements Collector.Describable {
  private static final System.Logger LOG = System.getLogger(StoreCollector.class.getName());

  /** A RocksDB ticker: monotonic, so a counter, renamed to base units with {@code _total}. */
  private record Cumulative(String name, double scale) {}

  // Tickers RocksDbStore reports (EngineStats); any other key is exported as a gauge.
  private static final Map<String, Cumulative> CUMULATIVE =
      Map.of(
          "stall_micros", new Cumulative("whyslow_rocksdb_stall_seconds", 1e-6),
          "bytes_written", new Cumulative("whyslow_rocksdb_written_bytes", 1),
          "wal_file_bytes", new Cumulative("whyslow_rocksdb_wal_written_bytes", 1),
          "compact_read_bytes", new Cumulative("whyslow_rocksdb_compaction_read_bytes", 1),
          "compact_write_bytes", new Cumulative("whyslow_rocksdb_compaction_written_bytes", 1),
          "block_cache_hit", new Cumulative("whyslow_rocksdb_block_cache_hits", 1),
          "block_cache_miss", new Cumulative("whyslow_rocksdb_block_cache_misses", 1));

  private final WhyslowStore store;

  StoreCollector(WhyslowStore store) {
    this.store = store;
  }

  @Override
  public List<MetricFamilySamples> collect() {
    List<MetricFamilySamples> families = new ArrayList<>();
    StoreStats stats;
    try {
      stats = store.stats();
    } catch (RuntimeException e) {
      LOG.log(Level.WARNING, "store statistics unavailable for /metrics", e);
      families.add(gauge("whyslow_store_up", "1 if the store answered the scrape", 0));
      return families;
    }
    families.add(gauge("whyslow_store_up", "1 if the store answered the scrape", 1));
    families.add(gauge("whyslow_store_runs", "Runs held in the store", stats.runCount()));
    families.add(gauge("whyslow_store_sites", "Sites held in the store", stats.siteCount()));
    families.add(
        gauge("whyslow_store_disk_bytes", "Bytes the store occupies on disk", stats.diskBytes()));
    for (Map.Entry<String, Long> e : stats.engine().entrySet()) {
      Cumulative counter = CUMULATIVE.get(e.getKey());
      if (counter != null) {
        families.add(
            new CounterMetricFamily(
                counter.name(),
                "Storage engine counter " + e.getKey(),
                e.getValue() * counter.scale()));
      } else {
        families.add(
            gauge(
                engineMetricName(e.getKey()),
                "Storage engine property " + e.getKey(),
                e.getValue()));
      }
    }
    return families;
  }

  @Override
  public List<MetricFamilySamples> describe() {
    // Fixed names only: describing must not touch the store.
    List<MetricFamilySamples> families = new ArrayList<>();
    for (String name : List.of("whyslow_store_up", "whyslow_store_runs", "whyslow_store_sites")) {
      families.add(new GaugeMetricFamily(name, name, List.of()));
    }
    families.add(new GaugeMetricFamily("whyslow_store_disk_bytes", "", List.of()));
    return families;
  }

  /** {@code pending_compaction_bytes} becomes {@code whyslow_rocksdb_pending_compaction_bytes}. */
  static String engineMetricName(String key) {
    String name = key.toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9_]", "_");
    if (name.startsWith("whyslow_")) {
      return name;
    }
    return name.startsWith("rocksdb_") ? "whyslow_" + name : "whyslow_rocksdb_" + name;
  }

  private static GaugeMetricFamily gauge(String name, String help, double value) {
    return new GaugeMetricFamily(name, help, value);
  }
}
