package dev.whyslow.storage.rocksdb.internal;

import dev.whyslow.storage.StoreException;
import java.nio.ByteBuffer;
import org.rocksdb.ColumnFamilyHandle;
import org.rocksdb.RocksDBException;

/**
 * The version of the store layout as a whole, kept in {@code meta} (KEYS.md). A new directory gets
 * the current version; a directory of a newer version is refused before anything reads or writes
 * it, and an older one is where a migration would run.
 */
public final class StoreFormat {
  public static final int CURRENT = 1;

  private StoreFormat() {}

  public static void checkOrInitialize(RocksDbHandles handles) throws RocksDBException {
    ColumnFamilyHandle meta = handles.family(ColumnFamily.META);
    byte[] key = Keys.meta(Keys.META_FORMAT_VERSION);
    byte[] value = handles.db().get(meta, key);
    if (value == null) {
      handles
          .db()
          .put(meta, handles.writeOptions(), key, ByteBuffer.allocate(4).putInt(CURRENT).array());
      return;
    }
    int version = value.length == 4 ? ByteBuffer.wrap(value).getInt() : -1;
    if (version > CURRENT) {
      throw new StoreException(
          "storage data directory "
              + handles.dataDir()
              + " was written in store format "
              + version
              + ", newer than format "
              + CURRENT
              + " that this whyslowd reads; run a whyslowd at least as new as the one that wrote"
              + " it, or configure an empty data directory");
    }
    if (version < 1) {
      throw new StoreException(
          "storage data directory "
              + handles.dataDir()
              + " has an unreadable format marker; it is damaged or not a whyslow store."
              + " Restore it from a checkpoint or configure another data directory");
    }
  }
}
