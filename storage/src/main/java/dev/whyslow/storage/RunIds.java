package dev.whyslow.storage;

/**
 * Run ids are {@code startEpochMillis << 20 | sequence}: big-endian they sort by start time, so a
 * window of time is one key range and retention is one range deletion. The low 20 bits are a
 * daemon-wide counter, unique unless a million runs start in the same millisecond.
 */
public final class RunIds {
  public static final int SEQUENCE_BITS = 20;
  public static final long SEQUENCE_MASK = (1L << SEQUENCE_BITS) - 1;

  /** Latest start time a run id can hold (year 2248). */
  public static final long MAX_EPOCH_MILLIS = (1L << (63 - SEQUENCE_BITS)) - 1;

  private RunIds() {}

  public static long of(long startEpochMillis, long sequence) {
    if (startEpochMillis < 0 || startEpochMillis > MAX_EPOCH_MILLIS) {
      throw new IllegalArgumentException("run start " + startEpochMillis + " ms is out of range");
    }
    return (startEpochMillis << SEQUENCE_BITS) | (sequence & SEQUENCE_MASK);
  }

  public static long startEpochMillis(long runId) {
    return runId >>> SEQUENCE_BITS;
  }

  /** Smallest id of a run starting at or after {@code epochMillis}. */
  public static long firstIdAt(long epochMillis) {
    return Math.max(0, Math.min(epochMillis, MAX_EPOCH_MILLIS)) << SEQUENCE_BITS;
  }

  public static String format(long runId) {
    return String.format("%016x", runId);
  }

  public static long parse(String text) {
    try {
      return Long.parseUnsignedLong(text, 16);
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(
          "run id '" + text + "' is not 16 hex digits as shown by the API", e);
    }
  }
}
