package dev.whyslow.agent.core;

import dev.whyslow.protocol.UnitHistogram;

/**
 * One unit type's durations in the current interval: count, sum, sum of squares, min, max,
 * violations and the shared buckets. Recording takes this object's lock briefly (units are coarse:
 * requests, tasks) and allocates nothing; {@link #drain} hands the interval over and starts the
 * next one.
 */
final class UnitHistogramRecorder {
  private final String unitType;
  private final long[] buckets = new long[UnitHistogram.BUCKETS];
  private long count;
  private long sum;
  private double sumSquares;
  private long min = Long.MAX_VALUE;
  private long max;
  private long violations;

  UnitHistogramRecorder(String unitType) {
    this.unitType = unitType;
  }

  synchronized void record(long nanos, boolean violation) {
    long d = Math.max(0, nanos);
    buckets[UnitHistogram.bucketOf(d)]++;
    count++;
    sum += d;
    sumSquares += (double) d * d;
    min = Math.min(min, d);
    max = Math.max(max, d);
    if (violation) {
      violations++;
    }
  }

  /** The interval so far, or {@code null} if no unit ended in it; resets for the next. */
  synchronized UnitHistogram drain() {
    if (count == 0) {
      return null;
    }
    UnitHistogram h =
        new UnitHistogram(unitType, count, sum, sumSquares, min, max, violations, buckets);
    java.util.Arrays.fill(buckets, 0);
    count = 0;
    sum = 0;
    sumSquares = 0;
    min = Long.MAX_VALUE;
    max = 0;
    violations = 0;
    return h;
  }
}
