package dev.whyslow.daemon.http;

import java.time.Instant;
import java.time.format.DateTimeParseException;

/** Times in requests: epoch milliseconds ({@code 1718000000000}) or ISO-8601 instants. */
public final class TimeParam {
  private TimeParam() {}

  public static long parse(String name, String text) {
    String t = text.trim();
    if (!t.isEmpty() && t.chars().allMatch(Character::isDigit)) {
      try {
        return Long.parseLong(t);
      } catch (NumberFormatException e) {
        throw ApiException.badParameter(name, text, "epoch milliseconds out of range");
      }
    }
    try {
      return Instant.parse(t).toEpochMilli();
    } catch (DateTimeParseException | ArithmeticException e) {
      throw ApiException.badParameter(
          name,
          text,
          "use epoch milliseconds (1718000000000) or an ISO-8601 instant"
              + " (2024-06-10T06:13:20Z)");
    }
  }
}
