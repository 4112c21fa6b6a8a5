package dev.whyslow.daemon.units;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.whyslow.daemon.config.ThresholdMethod;
import dev.whyslow.daemon.config.ThresholdSettings;
import dev.whyslow.protocol.UnitHistogram;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class ThresholdCalculatorTest {
  private static final long MS = 1_000_000L;

  /** {@code n} units of each of {@code millis}, as an agent would count them. */
  static UnitHistogram units(int n, long... millis) {
    long count = 0;
    long sum = 0;
    double squares = 0;
    long min = Long.MAX_VALUE;
    long max = 0;
    long[] buckets = new long[UnitHistogram.BUCKETS];
    for (long ms : millis) {
      long ns = ms * MS;
      count += n;
      sum += n * ns;
      squares += n * (double) ns * ns;
      min = Math.min(min, ns);
      max = Math.max(max, ns);
      buckets[UnitHistogram.bucketOf(ns)] += n;
    }
    return new UnitHistogram("t", count, sum, squares, min, max, 0, buckets);
  }

  private static ThresholdCalculator calculator(ThresholdMethod method, long minCount) {
    return new ThresholdCalculator(
        new ThresholdSettings(4, Duration.ofMinutes(15), minCount, method, Duration.ofSeconds(10)));
  }

  @Test
  void meanSigmaIsExactFromCountSumAndSquares() {
    // 100 units of 10 ms and 100 of 20 ms: mean 15 ms, population sigma 5 ms, 15 + 4 * 5 = 35 ms.
    UnitHistogram h = units(100, 10, 20);

    HistogramEstimates e = new HistogramEstimates(h);
    assertThat(e.mean()).isEqualTo(15.0 * MS);
    assertThat(e.standardDeviation()).isCloseTo(5.0 * MS, within(1e-3));
    assertThat(calculator(ThresholdMethod.MEAN_SIGMA, 200).threshold(h).getAsLong())
        .isCloseTo(35 * MS, within(1L));
  }

  @Test
  void noThresholdBelowTheMinimumCount() {
    assertThat(calculator(ThresholdMethod.MEAN_SIGMA, 201).threshold(units(100, 10, 20))).isEmpty();
    assertThat(calculator(ThresholdMethod.ROBUST, 201).threshold(units(100, 10, 20))).isEmpty();
  }

  @Test
  void equalDurationsGiveTheDurationItself() {
    assertThat(calculator(ThresholdMethod.MEAN_SIGMA, 10).threshold(units(50, 7)).getAsLong())
        .isEqualTo(7 * MS);
  }

  @Test
  void robustUsesMedianAndMadSpreadOverTheObservedPartOfABucket() {
    // 100 units of 6 ms and 100 of 10 ms share the bucket (5 ms, 10 ms], narrowed to [6, 10] ms
    // and taken as uniform: median 8 ms, MAD 1 ms (F(8+d) - F(8-d) = 2d/4 = 1/2),
    // threshold 8 + 4 * 1.4826 * 1 = 13.9304 ms.
    UnitHistogram h = units(100, 6, 10);
    HistogramEstimates e = new HistogramEstimates(h);

    assertThat(e.median()).isCloseTo(8.0 * MS, within(1.0));
    assertThat(e.medianAbsoluteDeviation()).isCloseTo(1.0 * MS, within(1.0));
    assertThat(e.quantile(0.99)).isCloseTo(9.96 * MS, within(1.0));
    assertThat(calculator(ThresholdMethod.ROBUST, 200).threshold(h).getAsLong())
        .isCloseTo(13_930_400L, within(10L));
  }

  @Test
  void robustIsNotDraggedUpByAHeavyTail() {
    // 190 fast units and 10 taking 5 s: the mean and sigma follow the tail, the median does not.
    UnitHistogram fast = units(95, 6, 10);
    UnitHistogram slow = units(10, 5000);
    UnitHistogram h = dev.whyslow.storage.UnitHistograms.add(fast, slow);

    long robust = calculator(ThresholdMethod.ROBUST, 200).threshold(h).getAsLong();
    long meanSigma = calculator(ThresholdMethod.MEAN_SIGMA, 200).threshold(h).getAsLong();

    assertThat(robust).isLessThan(20 * MS);
    assertThat(meanSigma).isGreaterThan(4000 * MS);
  }

  @Test
  void estimatesOfAnEmptyHistogramAreZero() {
    HistogramEstimates e = new HistogramEstimates(dev.whyslow.storage.UnitHistograms.empty("t"));
    assertThat(e.mean()).isZero();
    assertThat(e.quantile(0.99)).isZero();
    assertThat(e.medianAbsoluteDeviation()).isZero();
  }
}
