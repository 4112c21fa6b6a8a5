package dev.whyslow.agent.core;

import dev.whyslow.agent.bootstrap.Probes;
import dev.whyslow.agent.config.InvocationSampling;

/**
 * The sampling rate and the kill switch, as the configuration and the daemon set them, turned into
 * what the probes use ({@link InvocationSampling}): at a rate where invocations are sampled, a
 * share of them runs its probes at the rate over the share; otherwise every invocation runs them at
 * the rate. Invocations are sampled only if they were at the start rate, since only then were
 * classes instrumented with the copies that make it pay: a JVM started at a high rate keeps running
 * every invocation's probes whatever rate the daemon sets later. The share drops to the steady one
 * once the JIT has settled ({@link #poll}), for good.
 */
final class SamplingPlan {
  private final InvocationSampling settings;
  private final JitSettling jit;
  private double rate = Double.NaN;
  private double raise = 1;
  private boolean steady;

  SamplingPlan(InvocationSampling settings, double startRate, JitSettling jit) {
    this.settings =
        settings.usedAt(startRate) ? settings : new InvocationSampling(false, settings.share());
    this.jit = this.settings.lowers() ? jit : null;
  }

  /** Whether classes get copies: invocations are sampled from the start. */
  boolean copies() {
    return settings.enabled();
  }

  /**
   * Sets the share of evaluations recorded.
   *
   * @throws IllegalArgumentException when it is not a rate in [1e-6, 1]
   */
  synchronized void setRate(double rate) {
    double inForce = raised(rate, raise);
    Probes.setSamplingRate(
        inForce, steady ? settings.steadyShareAt(inForce) : settings.shareAt(inForce));
    this.rate = rate;
  }

  /**
   * Raises the rate in force by {@code factor} (at least 1), inside a sampling window; 1 puts it
   * back. The raise stops where the rate would leave the steady share of sampled invocations, so a
   * window never makes every invocation run its probes. A rate set meanwhile is raised as well.
   */
  synchronized void raiseBy(double factor) {
    raise = Math.max(1, factor);
    if (!Double.isNaN(rate)) {
      setRate(rate);
    }
  }

  private double raised(double base, double factor) {
    double cap = settings.steadyShare() * InvocationSampling.MAX_RATE_SHARE;
    if (factor <= 1 || !settings.enabled() || base >= cap) {
      return base;
    }
    return Math.min(base * factor, cap);
  }

  /**
   * Lowers the share to the steady one if the JIT has settled since the last poll; the agent's
   * background thread calls it about once a second.
   *
   * @return the share now in force when it was lowered by this call, else {@code 0}
   */
  synchronized double poll() {
    if (jit == null || steady || Double.isNaN(rate) || !jit.settled()) {
      return 0;
    }
    steady = true;
    double inForce = raised(rate, raise);
    double share = settings.steadyShareAt(inForce);
    if (share == Probes.invocationShare()) {
      return 0; // the rate in force leaves no room below the warm-up share
    }
    Probes.setSamplingRate(inForce, share);
    return share;
  }

  /** The kill switch. */
  synchronized void setEnabled(boolean on) {
    Probes.setEnabled(on);
  }
}
