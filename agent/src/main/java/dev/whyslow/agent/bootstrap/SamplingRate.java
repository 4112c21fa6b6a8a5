package dev.whyslow.agent.bootstrap;

/**
 * An immutable sampling rate with the logarithm the geometric draw needs, so a rate change is one
 * volatile write of a reference and the sampled path never recomputes {@code ln(1 - rate)}.
 */
public final class SamplingRate {
  /** One in a million: the lowest rate the agent accepts. */
  public static final double MIN = 1e-6;

  final double rate;

  /** {@code ln(1 - rate)}; negative infinity at rate 1, where every evaluation is recorded. */
  final double logOneMinusRate;

  private SamplingRate(double rate) {
    this.rate = rate;
    this.logOneMinusRate = Math.log1p(-rate);
  }

  /**
   * @throws IllegalArgumentException when {@code rate} is outside {@code [1e-6, 1]}
   */
  public static SamplingRate of(double rate) {
    if (!(rate >= MIN && rate <= 1.0)) {
      // StringBuilder, not "+": bootstrap classes avoid invokedynamic string concatenation.
      throw new IllegalArgumentException(
          new StringBuilder("sampling rate must be in [1e-6, 1], was ").append(rate).toString());
    }
    return new SamplingRate(rate);
  }

  public double rate() {
    return rate;
  }
}
