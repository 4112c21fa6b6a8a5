package dev.whyslow.storage;

import java.nio.file.Path;

class InMemoryUnitRecordsTest extends UnitRecordsContract {
  @Override
  protected WhyslowStore openStore(Path dir) {
    return new InMemoryStore();
  }
}
