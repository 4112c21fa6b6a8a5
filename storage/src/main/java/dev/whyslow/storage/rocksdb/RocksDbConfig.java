package dev.whyslow.storage.rocksdb;

import java.nio.file.Path;
import java.util.Objects;

/**
 * How {@link RocksDbStore} uses memory, disk and threads. RocksDB's memory is one budget: {@code
 * cacheBytes} is an LRU block cache that memtables are charged to as well (through a write-buffer
 * manager capped at {@code writeBufferBytes}), so the store's native memory stays near {@code
 * cacheBytes} plus index overhead. Example: {@code RocksDbConfig.defaults(Path.of("data"))}.
 *
 * @param dataDir directory holding the database; created if missing
 * @param cacheBytes block cache capacity, memtables included
 * @param writeBufferBytes cap on all memtables together, at most {@code cacheBytes}
 * @param maxBackgroundJobs flush and compaction threads
 * @param syncWrites fsync the WAL on every write: survives an OS crash or power loss too, at a
 *     large cost in write latency. Off, every acknowledged write still survives a crash of the
 *     process.
 * @param statistics collect RocksDB statistics (stall time, compaction bytes, cache hits) at {@code
 *     EXCEPT_DETAILED_TIMERS}, which costs a few percent of throughput
 */
public record RocksDbConfig(
    Path dataDir,
    long cacheBytes,
    long writeBufferBytes,
    int maxBackgroundJobs,
    boolean syncWrites,
    boolean statistics) {

  public static final long MIB = 1024 * 1024;
  public static final long DEFAULT_CACHE_BYTES = 64 * MIB;
  public static final long DEFAULT_WRITE_BUFFER_BYTES = 32 * MIB;
  public static final int DEFAULT_MAX_BACKGROUND_JOBS = 2;

  public RocksDbConfig {
    Objects.requireNonNull(dataDir, "dataDir");
    if (cacheBytes < MIB) {
      throw new IllegalArgumentException(
          "storage cache of " + cacheBytes + " bytes is too small: give it at least 1 MiB");
    }
    if (writeBufferBytes < MIB || writeBufferBytes > cacheBytes) {
      throw new IllegalArgumentException(
          "storage write buffers of "
              + writeBufferBytes
              + " bytes must be at least 1 MiB and at most the cache size ("
              + cacheBytes
              + " bytes), because they are charged to the cache");
    }
    if (maxBackgroundJobs < 1) {
      throw new IllegalArgumentException(
          "storage background jobs must be at least 1, was " + maxBackgroundJobs);
    }
  }

  /** 64 MiB cache with 32 MiB of write buffers, 2 background jobs, WAL not fsynced, statistics. */
  public static RocksDbConfig defaults(Path dataDir) {
    return new RocksDbConfig(
        dataDir,
        DEFAULT_CACHE_BYTES,
        DEFAULT_WRITE_BUFFER_BYTES,
        DEFAULT_MAX_BACKGROUND_JOBS,
        false,
        true);
  }

  public RocksDbConfig withMemory(long cache, long writeBuffers) {
    return new RocksDbConfig(
        dataDir, cache, writeBuffers, maxBackgroundJobs, syncWrites, statistics);
  }

  public RocksDbConfig withSyncWrites(boolean value) {
    return new RocksDbConfig(
        dataDir, cacheBytes, writeBufferBytes, maxBackgroundJobs, value, statistics);
  }

  public RocksDbConfig withStatistics(boolean value) {
    return new RocksDbConfig(
        dataDir, cacheBytes, writeBufferBytes, maxBackgroundJobs, syncWrites, value);
  }
}
