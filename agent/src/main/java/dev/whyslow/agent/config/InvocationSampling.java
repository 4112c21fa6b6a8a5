package dev.whyslow.agent.config;

/**
 * Sampled invocations: instrumented methods keep their own code and run a copy with probes in a
 * share of their invocations, chosen by a per-thread countdown; in those the rate is the configured
 * one over the share, so each evaluation is still recorded with the configured rate. Used only at
 * rates of {@link #MAX_RATE_SHARE} of the share or less (1/10000 with the default share): above
 * that the probes cost more than the copies save, and every invocation runs its probes.
 *
 * @param enabled {@code sampling.invocations}
 * @param share {@code sampling.invocation.share}: the share of invocations that run their probes,
 *     in (0, 1]
 */
public record InvocationSampling(boolean enabled, double share) {
  /**
   * The default share: one invocation in 20. A lower share costs less (1/100 was some 2 points
   * cheaper on CpuWorkload) but puts the samples in fewer invocations: with 1/100 the diagnosis of
   * two workloads of examples/EVALUATION.md no longer ranked their cause first from 10 runs per
   * side (bench/README.md).
   */
  public static final double DEFAULT_SHARE = 0.05;

  /** Used only at rates up to this share of the share: the rate in a copy stays at most 1/10. */
  public static final double MAX_RATE_SHARE = 0.1;

  /** Whether invocations are sampled at this sampling rate. */
  public boolean usedAt(double rate) {
    return enabled && share < 1.0 && rate <= share * MAX_RATE_SHARE;
  }

  /** The share of invocations that run their probes at this rate: {@link #share} or all. */
  public double shareAt(double rate) {
    return usedAt(rate) ? share : 1.0;
  }
}
