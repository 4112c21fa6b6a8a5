package dev.whyslow.daemon;

import dev.whyslow.daemon.config.DaemonConfig;
import dev.whyslow.storage.WhyslowStore;

/** Opens the production store from the daemon's configuration. */
final class Stores {
  private Stores() {}

  static WhyslowStore openRocksDb(DaemonConfig config) {
    throw new IllegalStateException(
        "the RocksDB store is not available in this build yet; data.dir=" + config.dataDir());
  }
}
