package dev.whyslow.daemon.config;

import java.util.Locale;

/**
 * Parses byte sizes as operators write them: {@code 16777216}, {@code 16MiB}, {@code 512KiB},
 * {@code 1GiB}. Binary units only, so {@code 16MiB} is exactly {@code 16 * 1024 * 1024}.
 */
final class ByteSize {
  private ByteSize() {}

  static long parse(String text) {
    String t = text.trim().toLowerCase(Locale.ROOT).replace(" ", "");
    long multiplier = 1;
    String[][] units = {{"kib", "k"}, {"mib", "m"}, {"gib", "g"}};
    outer:
    for (int i = 0; i < units.length; i++) {
      for (String unit : units[i]) {
        if (t.endsWith(unit)) {
          multiplier = 1L << (10 * (i + 1));
          t = t.substring(0, t.length() - unit.length());
          break outer;
        }
      }
    }
    if (t.endsWith("b")) {
      t = t.substring(0, t.length() - 1);
    }
    long number;
    try {
      number = Long.parseLong(t);
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(
          "not a byte size; write a whole number of bytes or use KiB, MiB, GiB (e.g. 16MiB)", e);
    }
    if (number < 0) {
      throw new IllegalArgumentException("a size cannot be negative");
    }
    try {
      return Math.multiplyExact(number, multiplier);
    } catch (ArithmeticException e) {
      throw new IllegalArgumentException("size is too large", e);
    }
  }

  static String format(long bytes) {
    for (String unit : new String[] {"GiB", "MiB", "KiB"}) {
      long size = 1L << (unit.equals("GiB") ? 30 : unit.equals("MiB") ? 20 : 10);
      if (bytes >= size && bytes % size == 0) {
        return bytes / size + unit;
      }
    }
    return Long.toString(bytes);
  }
}
