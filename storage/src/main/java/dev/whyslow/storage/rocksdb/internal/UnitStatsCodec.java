package dev.whyslow.storage.rocksdb.internal;

import dev.whyslow.protocol.MalformedMessageException;
import dev.whyslow.protocol.UnitHistogram;
import dev.whyslow.protocol.WireReader;
import dev.whyslow.protocol.WireWriter;
import dev.whyslow.storage.RunOrigin;
import dev.whyslow.storage.StoredUnitStats;
import java.nio.charset.StandardCharsets;

/**
 * A {@code unit_stats} entry. The key ({@link Keys#unitStats}) holds interval start, service, unit
 * type and instance; the value the rest:
 *
 * <pre>
 * [0] format version (1), string service version, varlong interval ms, varlong count,
 * varlong sum ns, f64 sum of squares ns², varlong min ns, varlong max ns, varlong violations,
 * varint bucket count, varlong × bucket count
 * </pre>
 */
public final class UnitStatsCodec {
  public static final int FORMAT_VERSION = 1;

  private UnitStatsCodec() {}

  public static byte[] encode(String serviceVersion, long intervalMillis, UnitHistogram h) {
    WireWriter w = new WireWriter(64 + 3 * UnitHistogram.BUCKETS);
    w.writeByte(FORMAT_VERSION)
        .writeString(serviceVersion)
        .writeVarLong(intervalMillis)
        .writeVarLong(h.count())
        .writeVarLong(h.sumNanos())
        .writeDouble(h.sumSquaresNanos2())
        .writeVarLong(h.minNanos())
        .writeVarLong(h.maxNanos())
        .writeVarLong(h.violations());
    long[] buckets = h.bucketCounts();
    w.writeVarInt(buckets.length);
    for (long b : buckets) {
      w.writeVarLong(b);
    }
    return w.toByteArray();
  }

  public static StoredUnitStats decode(byte[] key, byte[] value) throws MalformedMessageException {
    try {
      return read(key, value);
    } catch (IllegalArgumentException | IndexOutOfBoundsException e) {
      throw new MalformedMessageException("unit statistics entry: " + e.getMessage(), e);
    }
  }

  /**
   * Whether a key belongs to {@code serviceName} ({@link Keys#serviceName}) and, if {@code
   * unitTypeName} is not null, to that unit type; compares bytes in place without decoding.
   */
  public static boolean keyMatches(byte[] key, byte[] serviceName, byte[] unitTypeName) {
    if (!regionEquals(key, 8, serviceName)) {
      return false;
    }
    return unitTypeName == null || regionEquals(key, 8 + serviceName.length, unitTypeName);
  }

  /** {@code u16 length | utf8} of a name, as it appears inside keys. */
  public static byte[] nameBytes(String name) {
    byte[] utf8 = name.getBytes(StandardCharsets.UTF_8);
    byte[] out = new byte[2 + utf8.length];
    out[0] = (byte) (utf8.length >>> 8);
    out[1] = (byte) utf8.length;
    System.arraycopy(utf8, 0, out, 2, utf8.length);
    return out;
  }

  private static boolean regionEquals(byte[] key, int offset, byte[] expected) {
    if (key.length < offset + expected.length) {
      return false;
    }
    for (int i = 0; i < expected.length; i++) {
      if (key[offset + i] != expected[i]) {
        return false;
      }
    }
    return true;
  }

  private static StoredUnitStats read(byte[] key, byte[] value) throws MalformedMessageException {
    WireReader r = new WireReader(value);
    int version = r.readByte("unit statistics format version");
    if (version != FORMAT_VERSION) {
      throw new MalformedMessageException(
          "unit statistics format version " + version + ", this build reads " + FORMAT_VERSION);
    }
    String serviceVersion = r.readString("service version");
    long intervalMillis = r.readVarLong("interval");
    long count = r.readVarLong("count");
    long sum = r.readVarLong("sum");
    double squares = r.readDouble("sum of squares");
    long min = r.readVarLong("min");
    long max = r.readVarLong("max");
    long violations = r.readVarLong("violations");
    int n = r.readCount("buckets", 1);
    long[] buckets = new long[n];
    for (int i = 0; i < n; i++) {
      buckets[i] = r.readVarLong("bucket " + i);
    }
    RunOrigin origin = new RunOrigin(Keys.name(key, 8, 0), Keys.name(key, 8, 2), serviceVersion);
    UnitHistogram h =
        new UnitHistogram(Keys.name(key, 8, 1), count, sum, squares, min, max, violations, buckets);
    return new StoredUnitStats(origin, Keys.readLong(key, 0), intervalMillis, h);
  }
}
