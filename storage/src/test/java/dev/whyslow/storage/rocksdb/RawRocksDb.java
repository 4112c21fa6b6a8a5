package dev.whyslow.storage.rocksdb;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.rocksdb.ColumnFamilyDescriptor;
import org.rocksdb.ColumnFamilyHandle;
import org.rocksdb.DBOptions;
import org.rocksdb.Options;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;

/**
 * Opens a store's directory with plain RocksJava, bypassing {@link RocksDbStore}, to plant what
 * another version or a damaged disk could leave behind.
 */
final class RawRocksDb implements AutoCloseable {
  private final DBOptions options;
  private final RocksDB db;
  private final List<ColumnFamilyHandle> handles = new ArrayList<>();
  private final List<byte[]> names;

  RawRocksDb(Path dir) throws RocksDBException {
    try (Options listing = new Options()) {
      names = RocksDB.listColumnFamilies(listing, dir.toString());
    }
    options = new DBOptions();
    List<ColumnFamilyDescriptor> descriptors = new ArrayList<>();
    for (byte[] name : names) {
      descriptors.add(new ColumnFamilyDescriptor(name));
    }
    db = RocksDB.open(options, dir.toString(), descriptors, handles);
  }

  void put(String family, byte[] key, byte[] value) throws RocksDBException {
    db.put(handle(family), key, value);
  }

  /** Compacts the whole family, moving its data out of L0. */
  void compact(String family) throws RocksDBException {
    db.compactRange(handle(family));
  }

  void createFamily(String family) throws RocksDBException {
    handles.add(
        db.createColumnFamily(new ColumnFamilyDescriptor(family.getBytes(StandardCharsets.UTF_8))));
  }

  private ColumnFamilyHandle handle(String family) {
    for (int i = 0; i < names.size(); i++) {
      if (new String(names.get(i), StandardCharsets.UTF_8).equals(family)) {
        return handles.get(i);
      }
    }
    throw new IllegalArgumentException("no column family " + family);
  }

  @Override
  public void close() {
    handles.forEach(ColumnFamilyHandle::close);
    db.close();
    options.close();
  }
}
