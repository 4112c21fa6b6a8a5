package dev.whyslow.daemon.config;

import java.time.Duration;
import java.util.Locale;

/**
 * Durations in configuration: a whole number with {@code ms}, {@code s}, {@code m}, {@code h} or
 * {@code d}.
 */
public final class DurationText {
  private DurationText() {}

  public static Duration parse(String text) {
    String t = text.trim().toLowerCase(Locale.ROOT);
    int split = 0;
    while (split < t.length() && Character.isDigit(t.charAt(split))) {
      split++;
    }
    if (split == 0 || split == t.length()) {
      throw new IllegalArgumentException(
          "not a duration; write a whole number with ms, s, m, h or d, e.g. 15m");
    }
    long n;
    try {
      n = Long.parseLong(t.substring(0, split));
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("too large a number");
    }
    try {
      return switch (t.substring(split)) {
        case "ms" -> Duration.ofMillis(n);
        case "s" -> Duration.ofSeconds(n);
        case "m" -> Duration.ofMinutes(n);
        case "h" -> Duration.ofHours(n);
        case "d" -> Duration.ofDays(n);
        default ->
            throw new IllegalArgumentException(
                "unknown unit '" + t.substring(split) + "'; use ms, s, m, h or d, e.g. 15m");
      };
    } catch (ArithmeticException e) {
      throw new IllegalArgumentException("too large a duration");
    }
  }

  /** The shortest exact spelling: {@code 15m}, {@code 10s}, {@code 1500ms}. */
  public static String format(Duration d) {
    long ms = d.toMillis();
    for (Object[] unit :
        new Object[][] {{86_400_000L, "d"}, {3_600_000L, "h"}, {60_000L, "m"}, {1000L, "s"}}) {
      long size = (Long) unit[0];
      if (ms != 0 && ms % size == 0) {
        return ms / size + (String) unit[1];
      }
    }
    return ms + "ms";
  }
}
