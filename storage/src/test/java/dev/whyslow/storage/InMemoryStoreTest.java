package dev.whyslow.storage;

import java.nio.file.Path;

class InMemoryStoreTest extends WhyslowStoreContract {
  @Override
  protected WhyslowStore openStore(Path dir) {
    return new InMemoryStore();
  }
}
