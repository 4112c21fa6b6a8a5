package dev.whyslow.storage;

import dev.whyslow.protocol.UnitHistogram;

/**
 * Adding unit histograms: counts, sums, sums of squares, violations and buckets add; min and max
 * are taken over the non-empty parts. Histograms from any agents and intervals add up because every
 * agent uses the same bounds ({@link UnitHistogram#BOUNDS_NANOS}).
 */
public final class UnitHistograms {
  private UnitHistograms() {}

  /** A histogram of no units. */
  public static UnitHistogram empty(String unitType) {
    return new UnitHistogram(unitType, 0, 0, 0, 0, 0, 0, new long[UnitHistogram.BUCKETS]);
  }

  /** The sum of {@code parts}, named {@code unitType} whatever the parts are named. */
  public static UnitHistogram merge(String unitType, Iterable<UnitHistogram> parts) {
    long count = 0;
    long sum = 0;
    double squares = 0;
    long min = Long.MAX_VALUE;
    long max = 0;
    long violations = 0;
    long[] buckets = new long[UnitHistogram.BUCKETS];
    for (UnitHistogram h : parts) {
      if (h.count() > 0) {
        min = Math.min(min, h.minNanos());
        max = Math.max(max, h.maxNanos());
      }
      count = saturatedAdd(count, h.count());
      sum = saturatedAdd(sum, h.sumNanos());
      squares += h.sumSquaresNanos2();
      violations = saturatedAdd(violations, h.violations());
      long[] b = h.bucketCounts();
      for (int i = 0; i < buckets.length; i++) {
        buckets[i] = saturatedAdd(buckets[i], b[i]);
      }
    }
    if (count == 0) {
      min = 0;
    }
    return new UnitHistogram(unitType, count, sum, squares, min, max, violations, buckets);
  }

  /** {@code a + b}. */
  public static UnitHistogram add(UnitHistogram a, UnitHistogram b) {
    return merge(a.unitType(), java.util.List.of(a, b));
  }

  // Sums of nanoseconds reach Long.MAX_VALUE only after centuries of unit time; saturate rather
  // than wrap negative if an agent ever sends nonsense that passed validation.
  private static long saturatedAdd(long a, long b) {
    long r = a + b;
    return ((a ^ r) & (b ^ r)) < 0 ? Long.MAX_VALUE : r;
  }
}
