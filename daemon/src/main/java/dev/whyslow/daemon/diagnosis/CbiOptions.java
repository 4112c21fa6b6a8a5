package dev.whyslow.daemon.diagnosis;

import org.apache.commons.math3.distribution.NormalDistribution;

/**
 * Settings of the CBI basic model. Song and Lu used a 0.99 confidence level; cbiexp's code defaults
 * to 0.95. The support filter (a predicate must be true in at least {@code minSupport} runs) is
 * what protects the Wald interval from small samples, so lowering it is rarely a good idea.
 *
 * @param confidence two-sided confidence level of the Increase &gt; 0 test, in (0, 1)
 * @param minSupport minimum F(P true) + S(P true)
 * @param importance which score the Importance harmonic mean uses besides log F(P true) / log NumF
 */
public record CbiOptions(double confidence, int minSupport, ImportanceBasis importance) {

  /** The score Importance combines with recall: the paper's Increase, or cbiexp's lower bound. */
  public enum ImportanceBasis {
    /** {@code 2 / (1/Increase + 1/recall)}: PLDI'05 and Song and Lu. */
    INCREASE,
    /** {@code 2 / (1/LB + 1/recall)}: what cbiexp's code ranks by. */
    LOWER_BOUND
  }

  public static final double DEFAULT_CONFIDENCE = 0.99;
  public static final int DEFAULT_MIN_SUPPORT = 10;

  public CbiOptions {
    if (!(confidence > 0 && confidence < 1)) {
      throw new IllegalArgumentException(
          "CBI confidence must be in (0, 1), e.g. 0.99 or 0.95; was " + confidence);
    }
    if (minSupport < 1) {
      throw new IllegalArgumentException(
          "CBI minimum support must be >= 1 run (default 10), was " + minSupport);
    }
    if (importance == null) {
      throw new IllegalArgumentException("CBI importance basis must be INCREASE or LOWER_BOUND");
    }
  }

  public static CbiOptions defaults() {
    return new CbiOptions(DEFAULT_CONFIDENCE, DEFAULT_MIN_SUPPORT, ImportanceBasis.INCREASE);
  }

  public CbiOptions withConfidence(double value) {
    return new CbiOptions(value, minSupport, importance);
  }

  public CbiOptions withMinSupport(int value) {
    return new CbiOptions(confidence, value, importance);
  }

  public CbiOptions withImportance(ImportanceBasis value) {
    return new CbiOptions(confidence, minSupport, value);
  }

  /**
   * The critical value of the two-sided test: the standard normal quantile at (1 + confidence) / 2,
   * 2.5758 for 0.99 and 1.9600 for 0.95, as in cbiexp's {@code Confidence::critical}.
   */
  public double z() {
    // No random generator: only the quantile function is used.
    return new NormalDistribution(null, 0, 1, NormalDistribution.DEFAULT_INVERSE_ABSOLUTE_ACCURACY)
        .inverseCumulativeProbability((1 + confidence) / 2);
  }
}
