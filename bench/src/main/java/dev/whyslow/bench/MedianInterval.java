package dev.whyslow.bench;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;

/**
 * A confidence interval for the median of a few measurements that assumes nothing about their
 * distribution: from the k-th smallest to the k-th largest value. Each value falls below the true
 * median with probability one half, so the interval misses it only when fewer than k values fall on
 * one side, which binomial(n, 1/2) says how often. k is the largest for which that chance is at
 * most (1 - confidence) / 2 on each side; with too few values for the confidence asked, the
 * interval is the whole range and {@link #coverage} says what it really covers.
 *
 * <p>The overhead figures move by several points between runs of the same agent, because C2 does
 * not compile the instrumented code the same way every time; this interval is what a reader needs
 * to tell a change from that noise. It assumes the values are independent draws of one
 * distribution, which interleaved pairs approximate.
 *
 * @param low the k-th smallest value
 * @param high the k-th largest value
 * @param k the rank of both ends, from 1
 * @param coverage the chance that the interval holds the true median, at least the confidence asked
 *     when {@code k > 1}
 */
public record MedianInterval(double low, double high, int k, double coverage) {

  /** The median of {@code values} (at least one): the mean of the middle two for an even count. */
  public static double median(List<Double> values) {
    if (values.isEmpty()) {
      throw new IllegalArgumentException("no values");
    }
    List<Double> sorted = new ArrayList<>(values);
    Collections.sort(sorted);
    int n = sorted.size();
    return n % 2 == 1 ? sorted.get(n / 2) : (sorted.get(n / 2 - 1) + sorted.get(n / 2)) / 2;
  }

  /** The interval for {@code values} (at least one) at {@code confidence}, in (0, 1). */
  public static MedianInterval of(List<Double> values, double confidence) {
    if (values.isEmpty()) {
      throw new IllegalArgumentException("no values");
    }
    if (!(confidence > 0 && confidence < 1)) {
      throw new IllegalArgumentException("confidence " + confidence + " is not in (0, 1)");
    }
    List<Double> sorted = new ArrayList<>(values);
    Collections.sort(sorted);
    int n = sorted.size();
    double tail = (1 - confidence) / 2;
    // With X ~ binomial(n, 1/2), the interval [x(k), x(n-k+1)] misses the median with probability
    // 2 * P(X <= k - 1). The terms C(n, j) / 2^n are summed from their logarithms, so that 2^-n
    // does not underflow for long series.
    int k = 1;
    double logTerm = -n * Math.log(2); // log P(X = 0)
    double cumulative = Math.exp(logTerm); // P(X <= k - 1)
    for (int j = 1; j <= n / 2; j++) {
      logTerm += Math.log((n - j + 1.0) / j); // log P(X = j)
      double next = cumulative + Math.exp(logTerm); // P(X <= j)
      if (next > tail) {
        break;
      }
      k = j + 1;
      cumulative = next;
    }
    return new MedianInterval(sorted.get(k - 1), sorted.get(n - k), k, 1 - 2 * cumulative);
  }

  /** As overhead in percent: {@code +9.1 .. +15.3 %, 97.9 % coverage (3rd to 14th of 16)}. */
  public String asOverhead(int n) {
    return String.format(
        Locale.ROOT,
        "%+.2f .. %+.2f %%, %.1f %% coverage (%s to %s of %d)",
        (low - 1) * 100,
        (high - 1) * 100,
        coverage * 100,
        ordinal(k),
        ordinal(n - k + 1),
        n);
  }

  private static String ordinal(int i) {
    int lastTwo = i % 100;
    String suffix =
        lastTwo >= 11 && lastTwo <= 13
            ? "th"
            : switch (i % 10) {
              case 1 -> "st";
              case 2 -> "nd";
              case 3 -> "rd";
              default -> "th";
            };
    return i + suffix;
  }
}
