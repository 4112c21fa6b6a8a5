package dev.whyslow.storage.rocksdb;

import dev.whyslow.storage.UnitRecordsContract;
import dev.whyslow.storage.WhyslowStore;
import java.nio.file.Path;

class RocksDbUnitRecordsTest extends UnitRecordsContract {
  @Override
  protected WhyslowStore openStore(Path dir) {
    return RocksDbStore.open(
        RocksDbConfig.defaults(dir.resolve("db")).withMemory(8 << 20, 4 << 20));
  }

  @Override
  protected boolean supportsReopen() {
    return true;
  }
}
