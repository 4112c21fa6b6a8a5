package dev.whyslow.daemon.units;

import dev.whyslow.protocol.UnitHistogram;

/**
 * Statistics of a merged {@link UnitHistogram}. Mean and standard deviation are exact (count, sum,
 * sum of squares). Quantiles and the MAD are estimates: each bucket's units are taken as spread
 * evenly over the bucket, narrowed to the observed {@code [min, max]} (the first bucket starts at
 * 0, the overflow bucket ends at the max), so the distribution function is piecewise linear and its
 * inverse is found by interpolation. The error is at most one bucket's width.
 */
public final class HistogramEstimates {
  private final UnitHistogram h;
  private final long[] counts;
  private final double[] lower;
  private final double[] upper;

  public HistogramEstimates(UnitHistogram histogram) {
    this.h = histogram;
    this.counts = histogram.bucketCounts();
    int n = counts.length;
    lower = new double[n];
    upper = new double[n];
    long[] bounds = UnitHistogram.BOUNDS_NANOS;
    for (int i = 0; i < n; i++) {
      double lo = i == 0 ? 0 : bounds[i - 1];
      double hi = i < bounds.length ? bounds[i] : Math.max(histogram.maxNanos(), lo);
      // Narrow to what was observed: every unit lies in [min, max].
      lower[i] = Math.min(Math.max(lo, histogram.minNanos()), hi);
      upper[i] = Math.max(Math.min(hi, histogram.maxNanos()), lower[i]);
    }
  }

  public long count() {
    return h.count();
  }

  /** Mean in nanoseconds; 0 for an empty histogram. */
  public double mean() {
    return h.count() == 0 ? 0 : (double) h.sumNanos() / h.count();
  }

  /**
   * Population standard deviation in nanoseconds, {@code sqrt(Σx²/n − μ²)}; rounding can make the
   * difference slightly negative when all durations are nearly equal, which counts as 0.
   */
  public double standardDeviation() {
    if (h.count() == 0) {
      return 0;
    }
    double mean = mean();
    double variance = h.sumSquaresNanos2() / h.count() - mean * mean;
    return variance > 0 ? Math.sqrt(variance) : 0;
  }

  /** The estimated share of units with a duration {@code <= x} nanoseconds. */
  public double cdf(double x) {
    if (h.count() == 0) {
      return 0;
    }
    double below = 0;
    for (int i = 0; i < counts.length; i++) {
      if (counts[i] == 0) {
        continue;
      }
      if (x >= upper[i]) {
        below += counts[i];
      } else if (x > lower[i]) {
        below += counts[i] * (x - lower[i]) / (upper[i] - lower[i]);
      }
    }
    return below / h.count();
  }

  /** The estimated {@code q}-quantile (0 ≤ q ≤ 1) in nanoseconds; 0 for an empty histogram. */
  public double quantile(double q) {
    if (h.count() == 0) {
      return 0;
    }
    double target = q * h.count();
    double seen = 0;
    for (int i = 0; i < counts.length; i++) {
      if (counts[i] == 0) {
        continue;
      }
      if (seen + counts[i] >= target) {
        double within = (target - seen) / counts[i];
        return lower[i] + within * (upper[i] - lower[i]);
      }
      seen += counts[i];
    }
    return h.maxNanos();
  }

  public double median() {
    return quantile(0.5);
  }

  /**
   * The estimated median absolute deviation from the median: the d with {@code F(m + d) − F(m − d)
   * = 1/2} under the piecewise-linear F above, found by bisection (F is monotone in d).
   */
  public double medianAbsoluteDeviation() {
    if (h.count() == 0) {
      return 0;
    }
    double m = median();
    double lo = 0;
    double hi = Math.max(h.maxNanos() - m, m - h.minNanos());
    for (int i = 0; i < 100 && hi - lo > 0.5; i++) {
      double d = (lo + hi) / 2;
      double share = cdf(m + d) - cdf(m - d);
      if (share >= 0.5) {
        hi = d;
      } else {
        lo = d;
      }
    }
    return hi;
  }
}
