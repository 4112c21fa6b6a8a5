package dev.whyslow.storage.rocksdb.internal;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * Key encodings, all big-endian so that byte order is numeric order (see {@code storage/KEYS.md}).
 * Names are prefixed with their UTF-8 length in 16 bits, so no name is a prefix of another's key.
 */
public final class Keys {
  /** Meta key tags: one byte that says what the rest of a {@code meta} key is. */
  public static final byte META_FORMAT_VERSION = 0x01;

  public static final byte META_NEXT_SEQUENCE = 0x02;
  public static final byte META_NEXT_VIOLATION_SEQUENCE = 0x03;
  public static final byte META_SERVICE = 0x10;
  public static final byte META_SERVICE_INSTANCE = 0x11;
  public static final byte META_SERVICE_VERSION = 0x12;
  public static final byte META_SERVICE_RUNS_PER_MINUTE = 0x13;

  /** Exclusive upper bound above every run id: ids are non-negative longs. */
  public static final byte[] RUN_ID_END = {(byte) 0x80, 0, 0, 0, 0, 0, 0, 0};

  private Keys() {}

  public static byte[] longKey(long v) {
    byte[] out = new byte[8];
    putLong(out, 0, v);
    return out;
  }

  public static long readLong(byte[] bytes, int offset) {
    long v = 0;
    for (int i = 0; i < 8; i++) {
      v = (v << 8) | (bytes[offset + i] & 0xFF);
    }
    return v;
  }

  /** {@code tag? | u16 length | utf8} for each name, then an optional trailing long. */
  public static byte[] compose(int tag, String[] names, Long trailing) {
    byte[][] utf8 = new byte[names.length][];
    int size = tag >= 0 ? 1 : 0;
    for (int i = 0; i < names.length; i++) {
      utf8[i] = names[i].getBytes(StandardCharsets.UTF_8);
      if (utf8[i].length > 0xFFFF) {
        // StoreLimits rejects such names before they get here.
        throw new IllegalArgumentException("name of " + utf8[i].length + " bytes in a key");
      }
      size += 2 + utf8[i].length;
    }
    if (trailing != null) {
      size += 8;
    }
    byte[] out = new byte[size];
    int p = 0;
    if (tag >= 0) {
      out[p++] = (byte) tag;
    }
    for (byte[] name : utf8) {
      out[p++] = (byte) (name.length >>> 8);
      out[p++] = (byte) name.length;
      System.arraycopy(name, 0, out, p, name.length);
      p += name.length;
    }
    if (trailing != null) {
      putLong(out, p, trailing);
    }
    return out;
  }

  /** {@code sites}: service, then the site key. */
  public static byte[] site(String service, long siteKey) {
    return compose(-1, new String[] {service}, siteKey);
  }

  public static byte[] sitesOf(String service) {
    return compose(-1, new String[] {service}, null);
  }

  /** {@code agent_stats}: service, instance, version. */
  public static byte[] agentStats(String service, String instance, String serviceVersion) {
    return compose(-1, new String[] {service, instance, serviceVersion}, null);
  }

  /** {@code unit_stats}: interval start millis, then service, unit type, instance. */
  public static byte[] unitStats(
      long intervalStartMillis, String service, String unitType, String instance) {
    return withLeadingLong(
        intervalStartMillis, compose(-1, new String[] {service, unitType, instance}, null));
  }

  /** {@code thresholds} and {@code unit_types}: service, then unit type. */
  public static byte[] serviceUnitType(String service, String unitType) {
    return compose(-1, new String[] {service, unitType}, null);
  }

  /** The prefix of one service's keys in {@code thresholds}, {@code unit_types} or sites. */
  public static byte[] serviceName(String service) {
    return compose(-1, new String[] {service}, null);
  }

  public static byte[] meta(byte tag) {
    return new byte[] {tag};
  }

  public static byte[] metaService(byte tag, String service) {
    return compose(tag, new String[] {service}, null);
  }

  public static byte[] metaServiceName(byte tag, String service, String name) {
    return compose(tag, new String[] {service, name}, null);
  }

  public static byte[] metaRunsPerMinute(String service, long minute) {
    return compose(META_SERVICE_RUNS_PER_MINUTE, new String[] {service}, minute);
  }

  /**
   * Reads the {@code index}-th length-prefixed name of a key that starts at {@code offset} (1 to
   * skip a meta tag).
   */
  public static String name(byte[] key, int offset, int index) {
    int p = offset;
    for (int i = 0; i < index; i++) {
      p += 2 + length(key, p);
    }
    return new String(key, p + 2, length(key, p), StandardCharsets.UTF_8);
  }

  /** Offset just after the {@code count} length-prefixed names starting at {@code offset}. */
  public static int skipNames(byte[] key, int offset, int count) {
    int p = offset;
    for (int i = 0; i < count; i++) {
      p += 2 + length(key, p);
    }
    return p;
  }

  /**
   * The smallest key greater than every key that starts with {@code prefix}: the exclusive upper
   * bound of a prefix scan. Null if no such key exists (the prefix is all 0xFF).
   */
  public static byte[] prefixEnd(byte[] prefix) {
    byte[] end = Arrays.copyOf(prefix, prefix.length);
    for (int i = end.length - 1; i >= 0; i--) {
      if (end[i] != (byte) 0xFF) {
        end[i]++;
        return Arrays.copyOf(end, i + 1);
      }
    }
    return null;
  }

  private static byte[] withLeadingLong(long v, byte[] rest) {
    byte[] out = new byte[8 + rest.length];
    putLong(out, 0, v);
    System.arraycopy(rest, 0, out, 8, rest.length);
    return out;
  }

  private static int length(byte[] key, int p) {
    return ((key[p] & 0xFF) << 8) | (key[p + 1] & 0xFF);
  }

  private static void putLong(byte[] out, int offset, long v) {
    for (int i = 7; i >= 0; i--) {
      out[offset + i] = (byte) v;
      v >>>= 8;
    }
  }
}
