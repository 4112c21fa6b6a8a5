package dev.whyslow.protocol;

import java.util.Arrays;
import java.util.Objects;

/**
 * The durations of one unit type's units that ended during one interval in one JVM: enough for the
 * daemon to compute mean and standard deviation exactly (count, sum, sum of squares) and quantiles
 * approximately (fixed buckets shared by every agent, so histograms from many JVMs add up).
 *
 * @param unitType the unit type's name
 * @param count units that ended in the interval
 * @param sumNanos their summed durations, waiting time excluded
 * @param sumSquaresNanos2 their summed squared durations, in ns²
 * @param minNanos the shortest, 0 when {@code count} is 0
 * @param maxNanos the longest, 0 when {@code count} is 0
 * @param violations units of this type found over their threshold in the interval
 * @param bucketCounts {@code BOUNDS_NANOS.length + 1} counts: bucket i holds durations {@code <=
 *     BOUNDS_NANOS[i]} and above the previous bound; the last holds the rest
 */
public record UnitHistogram(
    String unitType,
    long count,
    long sumNanos,
    double sumSquaresNanos2,
    long minNanos,
    long maxNanos,
    long violations,
    long[] bucketCounts) {

  /** Upper bounds of the buckets, in nanoseconds: 100 µs to 60 s, roughly 1-2.5-5 per decade. */
  public static final long[] BOUNDS_NANOS = {
    100_000L,
    250_000L,
    500_000L,
    1_000_000L,
    2_500_000L,
    5_000_000L,
    10_000_000L,
    25_000_000L,
    50_000_000L,
    100_000_000L,
    250_000_000L,
    500_000_000L,
    1_000_000_000L,
    2_500_000_000L,
    5_000_000_000L,
    10_000_000_000L,
    30_000_000_000L,
    60_000_000_000L
  };

  /** The number of buckets, the overflow bucket included. */
  public static final int BUCKETS = BOUNDS_NANOS.length + 1;

  public UnitHistogram {
    Objects.requireNonNull(unitType, "unitType");
    bucketCounts = bucketCounts.clone();
    if (bucketCounts.length != BUCKETS) {
      throw new IllegalArgumentException(
          "a unit histogram has " + BUCKETS + " buckets, not " + bucketCounts.length);
    }
    if (count < 0 || sumNanos < 0 || violations < 0 || minNanos < 0 || maxNanos < minNanos) {
      throw new IllegalArgumentException(
          "unit histogram of '"
              + unitType
              + "' has negative or inconsistent values: count "
              + count
              + ", sum "
              + sumNanos
              + ", min "
              + minNanos
              + ", max "
              + maxNanos
              + ", violations "
              + violations);
    }
    long total = 0;
    for (long c : bucketCounts) {
      if (c < 0) {
        throw new IllegalArgumentException(
            "negative bucket count " + c + " for '" + unitType + "'");
      }
      total += c;
    }
    if (total != count) {
      throw new IllegalArgumentException(
          "buckets of '" + unitType + "' hold " + total + " units but count is " + count);
    }
    if (!(sumSquaresNanos2 >= 0) || Double.isInfinite(sumSquaresNanos2)) {
      throw new IllegalArgumentException(
          "sum of squares of '" + unitType + "' must be finite and >= 0, was " + sumSquaresNanos2);
    }
  }

  /** The index of the bucket a duration falls in. */
  public static int bucketOf(long nanos) {
    for (int i = 0; i < BOUNDS_NANOS.length; i++) {
      if (nanos <= BOUNDS_NANOS[i]) {
        return i;
      }
    }
    return BOUNDS_NANOS.length;
  }

  @Override
  public long[] bucketCounts() {
    return bucketCounts.clone();
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof UnitHistogram h
        && unitType.equals(h.unitType)
        && count == h.count
        && sumNanos == h.sumNanos
        && Double.compare(sumSquaresNanos2, h.sumSquaresNanos2) == 0
        && minNanos == h.minNanos
        && maxNanos == h.maxNanos
        && violations == h.violations
        && Arrays.equals(bucketCounts, h.bucketCounts);
  }

  @Override
  public int hashCode() {
    return Objects.hash(unitType, count, sumNanos, maxNanos) * 31 + Arrays.hashCode(bucketCounts);
  }

  @Override
  public String toString() {
    return "UnitHistogram[" + unitType + ", count=" + count + ", sum=" + sumNanos + "ns]";
  }
}
