package dev.whyslow.storage;

/**
 * Violation ids are built like run ids ({@link RunIds}): {@code detectedEpochMillis << 20 |
 * sequence}, so they sort by detection time, a window is one key range and retention one range
 * deletion. Shown as 16 hex digits.
 */
public final class ViolationIds {
  private ViolationIds() {}

  public static long of(long detectedEpochMillis, long sequence) {
    if (detectedEpochMillis < 0 || detectedEpochMillis > RunIds.MAX_EPOCH_MILLIS) {
      throw new IllegalArgumentException(
          "violation detected at " + detectedEpochMillis + " ms is out of range");
    }
    return RunIds.of(detectedEpochMillis, sequence);
  }

  public static long detectedEpochMillis(long violationId) {
    return RunIds.startEpochMillis(violationId);
  }

  /** Smallest id of a violation detected at or after {@code epochMillis}. */
  public static long firstIdAt(long epochMillis) {
    return RunIds.firstIdAt(epochMillis);
  }

  public static String format(long violationId) {
    return RunIds.format(violationId);
  }

  public static long parse(String text) {
    try {
      return Long.parseUnsignedLong(text, 16);
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(
          "violation id '" + text + "' is not 16 hex digits as shown by the API", e);
    }
  }
}
