package dev.whyslow.daemon;

import dev.whyslow.daemon.config.DaemonConfig;
import dev.whyslow.storage.WhyslowStore;
import dev.whyslow.storage.rocksdb.RocksDbConfig;
import dev.whyslow.storage.rocksdb.RocksDbStore;

/** Opens the production store, RocksDB in {@code data.dir}, from the daemon's configuration. */
final class Stores {
  private Stores() {}

  static WhyslowStore openRocksDb(DaemonConfig config) {
    RocksDbConfig rocks =
        RocksDbConfig.defaults(config.dataDir())
            .withMemory(config.storageCacheBytes(), config.storageWriteBufferBytes());
    return RocksDbStore.open(rocks);
  }
}
