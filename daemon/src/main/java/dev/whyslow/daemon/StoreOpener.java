package dev.whyslow.daemon;

import dev.whyslow.daemon.config.DaemonConfig;
import dev.whyslow.storage.WhyslowStore;

/** Opens the store a daemon runs on; tests pass one that returns an in-memory store. */
@FunctionalInterface
public interface StoreOpener {
  WhyslowStore open(DaemonConfig config);
}
