package dev.whyslow.storage.rocksdb.internal;

import dev.whyslow.storage.StoreException;
import dev.whyslow.storage.rocksdb.RocksDbConfig;
import java.io.IOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Deque;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.rocksdb.BlockBasedTableConfig;
import org.rocksdb.BloomFilter;
import org.rocksdb.Cache;
import org.rocksdb.ColumnFamilyDescriptor;
import org.rocksdb.ColumnFamilyHandle;
import org.rocksdb.ColumnFamilyOptions;
import org.rocksdb.CompressionType;
import org.rocksdb.DBOptions;
import org.rocksdb.LRUCache;
import org.rocksdb.Options;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;
import org.rocksdb.Statistics;
import org.rocksdb.StatsLevel;
import org.rocksdb.WriteBufferManager;
import org.rocksdb.WriteOptions;

/**
 * Every native object of one open store, created in dependency order and closed in reverse: column
 * family handles, then the DB, then options, then statistics, filter, write-buffer manager and
 * cache. A failure half-way through opening closes what was already created.
 */
public final class RocksDbHandles implements AutoCloseable {
  private final Path dataDir;
  private final RocksDB db;
  private final Map<ColumnFamily, ColumnFamilyHandle> families;
  private final WriteOptions writeOptions;
  private final Statistics statistics;
  private final Cache cache;
  private final Deque<AutoCloseable> closeOrder;

  private RocksDbHandles(
      Path dataDir,
      RocksDB db,
      Map<ColumnFamily, ColumnFamilyHandle> families,
      WriteOptions writeOptions,
      Statistics statistics,
      Cache cache,
      Deque<AutoCloseable> closeOrder) {
    this.dataDir = dataDir;
    this.db = db;
    this.families = families;
    this.writeOptions = writeOptions;
    this.statistics = statistics;
    this.cache = cache;
    this.closeOrder = closeOrder;
  }

  public static RocksDbHandles open(RocksDbConfig config) {
    Path dir = prepareDirectory(config.dataDir());
    RocksDB.loadLibrary();
    // Closed last-created first, so the DB goes before its options and the cache goes last.
    Deque<AutoCloseable> created = new ArrayDeque<>();
    try {
      Cache cache = push(created, new LRUCache(config.cacheBytes()));
      WriteBufferManager writeBuffers =
          push(created, new WriteBufferManager(config.writeBufferBytes(), cache));
      BloomFilter bloom = push(created, new BloomFilter(10, false));
      Statistics statistics = null;
      if (config.statistics()) {
        statistics = push(created, new Statistics());
        statistics.setStatsLevel(StatsLevel.EXCEPT_DETAILED_TIMERS);
      }
      DBOptions dbOptions =
          push(created, new DBOptions())
              .setCreateIfMissing(true)
              .setCreateMissingColumnFamilies(true)
              .setMaxBackgroundJobs(config.maxBackgroundJobs())
              .setBytesPerSync(RocksDbConfig.MIB)
              .setWriteBufferManager(writeBuffers)
              // Rarely written families would otherwise pin old WAL files forever.
              .setMaxTotalWalSize(4 * config.writeBufferBytes())
              .setKeepLogFileNum(5)
              .setMaxLogFileSize(16 * RocksDbConfig.MIB);
      if (statistics != null) {
        dbOptions.setStatistics(statistics);
      }
      ColumnFamilyOptions bulk =
          push(created, familyOptions(cache, bloom, true, config.writeBufferBytes()));
      ColumnFamilyOptions small =
          push(created, familyOptions(cache, bloom, false, config.writeBufferBytes()));
      WriteOptions writeOptions = push(created, new WriteOptions().setSync(config.syncWrites()));

      List<ColumnFamilyDescriptor> descriptors = new ArrayList<>();
      descriptors.add(new ColumnFamilyDescriptor(RocksDB.DEFAULT_COLUMN_FAMILY, small));
      for (ColumnFamily cf : ColumnFamily.values()) {
        descriptors.add(new ColumnFamilyDescriptor(cf.nameBytes(), cf.bulk() ? bulk : small));
      }
      // RocksDB refuses to open unless every existing family is named; a newer whyslowd may have
      // added some. The format version check after opening decides whether that is acceptable.
      for (byte[] name : existingFamilies(dir)) {
        if (descriptors.stream().noneMatch(d -> Arrays.equals(d.getName(), name))) {
          descriptors.add(new ColumnFamilyDescriptor(name, small));
        }
      }
      List<ColumnFamilyHandle> handles = new ArrayList<>();
      RocksDB db;
      try {
        db = RocksDB.open(dbOptions, dir.toString(), descriptors, handles);
      } catch (RocksDBException e) {
        throw openFailure(dir, e);
      }
      created.push(db::closeE);
      // Handles must go before the DB.
      handles.forEach(created::push);
      Map<ColumnFamily, ColumnFamilyHandle> families = new EnumMap<>(ColumnFamily.class);
      for (ColumnFamily cf : ColumnFamily.values()) {
        families.put(cf, handles.get(cf.ordinal() + 1));
      }
      return new RocksDbHandles(dir, db, families, writeOptions, statistics, cache, created);
    } catch (RuntimeException | Error e) {
      Throwable closing = closeAll(created);
      if (closing != null) {
        e.addSuppressed(closing);
      }
      throw e;
    }
  }

  public RocksDB db() {
    return db;
  }

  public ColumnFamilyHandle family(ColumnFamily cf) {
    return families.get(cf);
  }

  public WriteOptions writeOptions() {
    return writeOptions;
  }

  /** Null when statistics are off. */
  public Statistics statistics() {
    return statistics;
  }

  public Cache cache() {
    return cache;
  }

  public Path dataDir() {
    return dataDir;
  }

  @Override
  public void close() {
    Throwable failure = null;
    try {
      // Puts what the OS may still buffer of the WAL on disk before letting go: a clean shutdown
      // then survives a power loss too.
      db.syncWal();
    } catch (RocksDBException e) {
      failure = e;
    }
    Throwable closing = closeAll(closeOrder);
    if (failure == null) {
      failure = closing;
    } else if (closing != null) {
      failure.addSuppressed(closing);
    }
    if (failure != null) {
      throw new StoreException(
          "closing the RocksDB store in " + dataDir + " failed: " + failure, failure);
    }
  }

  private static ColumnFamilyOptions familyOptions(
      Cache cache, BloomFilter bloom, boolean bulk, long writeBufferBytes) {
    BlockBasedTableConfig table =
        new BlockBasedTableConfig()
            .setBlockCache(cache)
            .setFilterPolicy(bloom)
            .setCacheIndexAndFilterBlocks(true)
            .setPinL0FilterAndIndexBlocksInCache(true)
            .setBlockSize(bulk ? 16 * 1024 : 4 * 1024);
    ColumnFamilyOptions options =
        new ColumnFamilyOptions()
            .setTableFormatConfig(table)
            .setLevelCompactionDynamicLevelBytes(true)
            .setCompressionType(CompressionType.LZ4_COMPRESSION);
    if (bulk) {
      options
          .setWriteBufferSize(Math.max(RocksDbConfig.MIB, writeBufferBytes / 2))
          .setMaxWriteBufferNumber(3)
          .setBottommostCompressionType(CompressionType.ZSTD_COMPRESSION);
    } else {
      options
          .setWriteBufferSize(Math.max(RocksDbConfig.MIB, writeBufferBytes / 16))
          .setMaxWriteBufferNumber(2);
    }
    return options;
  }

  private static Path prepareDirectory(Path configured) {
    Path dir = configured.toAbsolutePath().normalize();
    try {
      Files.createDirectories(dir);
    } catch (FileAlreadyExistsException e) {
      throw new StoreException(
          "storage data directory "
              + dir
              + " exists but is not a directory; remove it or configure another data directory",
          e);
    } catch (IOException | SecurityException e) {
      throw new StoreException(
          "cannot create storage data directory "
              + dir
              + " ("
              + e
              + "); create it for the user running whyslowd or configure another one",
          e);
    }
    if (!Files.isWritable(dir)) {
      throw new StoreException(
          "storage data directory "
              + dir
              + " is not writable by user "
              + System.getProperty("user.name")
              + "; fix its permissions or configure another data directory");
    }
    return dir;
  }

  private static List<byte[]> existingFamilies(Path dir) {
    if (!Files.exists(dir.resolve("CURRENT"))) {
      return List.of();
    }
    try (Options options = new Options()) {
      return RocksDB.listColumnFamilies(options, dir.toString());
    } catch (RocksDBException e) {
      throw openFailure(dir, e);
    }
  }

  private static StoreException openFailure(Path dir, RocksDBException e) {
    String message = String.valueOf(e.getMessage());
    if (message.toLowerCase(Locale.ROOT).contains("lock")) {
      return new StoreException(
          "storage data directory "
              + dir
              + " is locked by another process (another whyslowd is using it?): stop that process"
              + " or configure a different data directory. RocksDB said: "
              + message,
          e);
    }
    return new StoreException(
        "cannot open the RocksDB store in "
            + dir
            + ": "
            + message
            + ". If the directory is damaged, restore it from a checkpoint or move it aside.",
        e);
  }

  private static <T extends AutoCloseable> T push(Deque<AutoCloseable> created, T resource) {
    created.push(resource);
    return resource;
  }

  /** Closes everything, even after a failure; returns the first failure with others suppressed. */
  private static Throwable closeAll(Deque<AutoCloseable> resources) {
    Throwable first = null;
    while (!resources.isEmpty()) {
      try {
        resources.pop().close();
      } catch (Exception | Error e) {
        if (first == null) {
          first = e;
        } else {
          first.addSuppressed(e);
        }
      }
    }
    return first;
  }
}
