package dev.whyslow.daemon.units;

import dev.whyslow.daemon.config.ThresholdMethod;
import dev.whyslow.daemon.config.ThresholdSettings;
import dev.whyslow.protocol.UnitHistogram;
import java.util.OptionalLong;

/**
 * One unit type's threshold from its merged histogram: {@code μ + k·σ} or, robust, {@code median +
 * k · 1.4826 · MAD} (1.4826 makes the MAD estimate σ for normal data). Empty when fewer than {@code
 * minCount} units are behind it, since a threshold from a handful of units would flag normal ones.
 */
public final class ThresholdCalculator {
  /** MAD × this estimates the standard deviation of normally distributed data. */
  public static final double MAD_TO_SIGMA = 1.4826;

  private final ThresholdSettings settings;

  public ThresholdCalculator(ThresholdSettings settings) {
    this.settings = settings;
  }

  /** The threshold in nanoseconds (at least 1), or empty if the histogram has too few units. */
  public OptionalLong threshold(UnitHistogram merged) {
    if (merged.count() < settings.minCount() || merged.count() == 0) {
      return OptionalLong.empty();
    }
    HistogramEstimates e = new HistogramEstimates(merged);
    double value =
        settings.method() == ThresholdMethod.ROBUST
            ? e.median() + settings.k() * MAD_TO_SIGMA * e.medianAbsoluteDeviation()
            : e.mean() + settings.k() * e.standardDeviation();
    if (!(value < Long.MAX_VALUE)) {
      return OptionalLong.of(Long.MAX_VALUE);
    }
    return OptionalLong.of(Math.max(1, (long) Math.ceil(value)));
  }
}
