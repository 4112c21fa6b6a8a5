package dev.whyslow.agent.config;

/**
 * Sampled invocations: instrumented methods keep their own code and run a copy with probes in a
 * share of their invocations, chosen by a per-thread countdown; in those the rate is the configured
 * one over the share, so each evaluation is still recorded with the configured rate. Used only at
 * rates of {@link #MAX_RATE_SHARE} of the share or less (1/10000 with the default share): above
 * that the probes cost more than the copies save, and every invocation runs its probes.
 *
 * <p>The share starts at {@link #share} and drops to {@link #steadyShare} once the JIT has settled
 * (less than 1 % of a {@link #settleMillis} window spent compiling): a copy that runs rarely
 * reaches the JIT's thresholds late, so the copies get compiled while they run often, and then run
 * less often. The samples recorded stay the same; they fall in fewer invocations.
 *
 * @param enabled {@code sampling.invocations}
 * @param share {@code sampling.invocation.share}: the share of invocations that run their probes
 *     while the JIT warms up, in (0, 1]
 * @param steadyShare {@code sampling.invocation.share.steady}: the share once it has settled, in
 *     (0, share]; equal to the share for no change
 * @param settleMillis {@code sampling.invocation.settle}: the window in which the JIT must have
 *     been almost idle
 */
public record InvocationSampling(
    boolean enabled, double share, double steadyShare, long settleMillis) {
  /**
   * The share while the JIT warms up: one invocation in 20, often enough for the copies to be
   * compiled about as soon as their methods.
   */
  public static final double DEFAULT_SHARE = 0.05;

  /**
   * The share once the JIT has settled: one invocation in 100. It costs a CPU-bound workload some
   * two points less than the warm-up share (bench/README.md, 2026-11-29); with it from the start
   * the copies were compiled late, and short runs of two workloads of examples/EVALUATION.md no
   * longer ranked their cause first from 10 runs per side, which is why it waits for the JIT.
   */
  public static final double DEFAULT_STEADY_SHARE = 0.01;

  /** The default window in which the JIT must have spent under 1 % of the time compiling. */
  public static final long DEFAULT_SETTLE_MILLIS = 5_000;

  /** Used only at rates up to this share of the share: the rate in a copy stays at most 1/10. */
  public static final double MAX_RATE_SHARE = 0.1;

  public InvocationSampling {
    if (!(steadyShare > 0 && steadyShare <= share)) {
      throw new IllegalArgumentException(
          "sampling.invocation.share.steady must be in (0, sampling.invocation.share], was "
              + steadyShare);
    }
  }

  /** One share throughout, never lowered. */
  public InvocationSampling(boolean enabled, double share) {
    this(enabled, share, share, DEFAULT_SETTLE_MILLIS);
  }

  /** Whether invocations are sampled at this sampling rate. */
  public boolean usedAt(double rate) {
    return enabled && share < 1.0 && rate <= share * MAX_RATE_SHARE;
  }

  /** The share of invocations that run their probes at this rate: {@link #share} or all. */
  public double shareAt(double rate) {
    return usedAt(rate) ? share : 1.0;
  }

  /**
   * The share once the JIT has settled: {@link #steadyShare} where the rate allows it (at most a
   * tenth of it), else {@link #shareAt}.
   */
  public double steadyShareAt(double rate) {
    return usedAt(rate) && rate <= steadyShare * MAX_RATE_SHARE ? steadyShare : shareAt(rate);
  }

  /** Whether the share is ever lowered. */
  public boolean lowers() {
    return enabled && steadyShare < share;
  }
}
