package dev.whyslow.storage.rocksdb.internal;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;
import org.rocksdb.Statistics;
import org.rocksdb.TickerType;

/**
 * Reads the RocksDB properties and tickers worth exporting (the set Kafka Streams exports, KIP-607)
 * into snake_case names in base units, summed over column families.
 */
public final class EngineStats {
  private static final Map<String, String> SUMMED_PROPERTIES =
      Map.of(
          "pending_compaction_bytes", "rocksdb.estimate-pending-compaction-bytes",
          "num_immutable_mem_tables", "rocksdb.num-immutable-mem-table",
          "cur_size_all_mem_tables_bytes", "rocksdb.cur-size-all-mem-tables",
          "live_sst_files_bytes", "rocksdb.live-sst-files-size");

  private static final String LEVEL0_FILES = "rocksdb.num-files-at-level0";

  /** Properties of the whole database rather than of one column family. */
  private static final Map<String, String> DB_PROPERTIES =
      Map.of(
          "background_errors", "rocksdb.background-errors",
          "num_running_compactions", "rocksdb.num-running-compactions",
          "num_running_flushes", "rocksdb.num-running-flushes");

  private static final Map<String, TickerType> TICKERS =
      Map.of(
          "stall_micros", TickerType.STALL_MICROS,
          "bytes_written", TickerType.BYTES_WRITTEN,
          "wal_file_bytes", TickerType.WAL_FILE_BYTES,
          "compact_read_bytes", TickerType.COMPACT_READ_BYTES,
          "compact_write_bytes", TickerType.COMPACT_WRITE_BYTES,
          "block_cache_hit", TickerType.BLOCK_CACHE_HIT,
          "block_cache_miss", TickerType.BLOCK_CACHE_MISS);

  private EngineStats() {}

  public static Map<String, Long> collect(RocksDbHandles handles, long cacheCapacityBytes)
      throws RocksDBException {
    RocksDB db = handles.db();
    Map<String, Long> out = new TreeMap<>();
    for (Map.Entry<String, String> p : SUMMED_PROPERTIES.entrySet()) {
      long sum = 0;
      for (ColumnFamily cf : ColumnFamily.values()) {
        sum += db.getLongProperty(handles.family(cf), p.getValue());
      }
      out.put(p.getKey(), sum);
    }
    long level0Files = 0;
    for (ColumnFamily cf : ColumnFamily.values()) {
      // A string property only: getLongProperty answers NotFound for it.
      level0Files += Long.parseLong(db.getProperty(handles.family(cf), LEVEL0_FILES).trim());
    }
    out.put("num_files_at_level0", level0Files);
    out.put(
        "estimate_num_keys_runs",
        db.getLongProperty(handles.family(ColumnFamily.RUNS), "rocksdb.estimate-num-keys"));
    for (Map.Entry<String, String> p : DB_PROPERTIES.entrySet()) {
      out.put(p.getKey(), db.getLongProperty(p.getValue()));
    }
    out.put("block_cache_usage_bytes", handles.cache().getUsage());
    out.put("block_cache_pinned_usage_bytes", handles.cache().getPinnedUsage());
    out.put("block_cache_capacity_bytes", cacheCapacityBytes);
    Statistics statistics = handles.statistics();
    if (statistics != null) {
      for (Map.Entry<String, TickerType> t : TICKERS.entrySet()) {
        out.put(t.getKey(), statistics.getTickerCount(t.getValue()));
      }
    }
    return Map.copyOf(out);
  }

  /**
   * Bytes of the files in the data directory (RocksDB keeps it flat): SST files, WAL, manifest and
   * info logs.
   */
  public static long directoryBytes(Path dir) throws IOException {
    try (Stream<Path> files = Files.list(dir)) {
      return files.mapToLong(EngineStats::sizeIfStillThere).sum();
    } catch (UncheckedIOException e) {
      throw e.getCause();
    }
  }

  private static long sizeIfStillThere(Path file) {
    try {
      return Files.isRegularFile(file) ? Files.size(file) : 0;
    } catch (NoSuchFileException e) {
      return 0; // compaction deleted it while we walked
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
