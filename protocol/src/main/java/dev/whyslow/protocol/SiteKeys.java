package dev.whyslow.protocol;

import java.nio.charset.StandardCharsets;

/**
 * Stable site keys: a 64-bit FNV-1a hash of (class, method, descriptor, instruction index, kind).
 * The same code gives the same key in every JVM, so runs from many instances and restarts line up.
 */
public final class SiteKeys {
  private static final long FNV_OFFSET = 0xcbf29ce484222325L;
  private static final long FNV_PRIME = 0x100000001b3L;

  private SiteKeys() {}

  public static long key(
      String className, String methodName, String descriptor, int instructionIndex, SiteKind kind) {
    long h = FNV_OFFSET;
    h = mix(h, className);
    h = mix(h, methodName);
    h = mix(h, descriptor);
    h = mixInt(h, instructionIndex);
    h = mixInt(h, kind.code());
    return h;
  }

  private static long mix(long h, String s) {
    for (byte b : s.getBytes(StandardCharsets.UTF_8)) {
      h ^= b & 0xff;
      h *= FNV_PRIME;
    }
    h ^= 0xff; // separator, so ("ab","c") and ("a","bc") differ
    return h * FNV_PRIME;
  }

  private static long mixInt(long h, int v) {
    for (int shift = 24; shift >= 0; shift -= 8) {
      h ^= (v >>> shift) & 0xff;
      h *= FNV_PRIME;
    }
    return h;
  }

  /** Keys are shown as 16 hex digits. */
  public static String format(long key) {
    return String.format("%016x", key);
  }

  public static long parse(String hex) {
    return Long.parseUnsignedLong(hex, 16);
  }
}
