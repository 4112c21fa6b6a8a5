package dev.whyslow.storage.rocksdb.internal;

import dev.whyslow.protocol.MalformedMessageException;
import dev.whyslow.protocol.WireReader;
import dev.whyslow.protocol.WireWriter;
import dev.whyslow.storage.StoredThreshold;

/**
 * The value of a {@code thresholds} entry (key: service, unit type): format version (1), varlong
 * threshold ns, varlong count it is based on, i64 computed-at ms.
 */
public final class ThresholdCodec {
  public static final int FORMAT_VERSION = 1;

  private ThresholdCodec() {}

  public static byte[] encode(StoredThreshold t) {
    return new WireWriter(32)
        .writeByte(FORMAT_VERSION)
        .writeVarLong(t.thresholdNanos())
        .writeVarLong(t.basedOnCount())
        .writeLong(t.computedAtEpochMillis())
        .toByteArray();
  }

  public static StoredThreshold decode(String unitType, byte[] value)
      throws MalformedMessageException {
    WireReader r = new WireReader(value);
    int version = r.readByte("threshold format version");
    if (version != FORMAT_VERSION) {
      throw new MalformedMessageException(
          "threshold format version " + version + ", this build reads " + FORMAT_VERSION);
    }
    try {
      return new StoredThreshold(
          unitType, r.readVarLong("threshold"), r.readVarLong("count"), r.readLong("computed at"));
    } catch (IllegalArgumentException e) {
      throw new MalformedMessageException("threshold entry: " + e.getMessage(), e);
    }
  }
}
