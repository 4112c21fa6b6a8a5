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
    InForce inForce = inForce(rate, steady);
    Probes.setSamplingRate(inForce.rate(), inForce.share());
    this.rate = rate;
  }

  /**
   * Raises the rate in force by {@code factor} (at least 1), inside a sampling window; 1 puts it
   * back. The share of invocations that run their probes is raised with it, so an invocation that
   * runs them samples at the same rate inside a window as outside: a unit type then gets as many
   * sampled invocations over time as without windows, only in bursts. Raising the rate alone put
   * the window's samples into as few invocations as before, and a loop run once per unit (the
   * shop's wildcard scan) was sampled in a tenth of the units it was without windows
   * (bench/DIAGNOSIS.md). The raise stops where every invocation would run its probes. A rate set
   * meanwhile is raised as well; where invocations are not sampled (a high rate, or {@code
   * sampling.invocations=off}) the rate is not raised.
   */
  synchronized void raiseBy(double factor) {
    raise = Math.max(1, factor);
    if (!Double.isNaN(rate)) {
      setRate(rate);
    }
  }

  /** The rate and the share of invocations the probes use, at this configured rate. */
  private InForce inForce(double configured, boolean lowered) {
    double share = lowered ? settings.steadyShareAt(configured) : settings.shareAt(configured);
    if (share >= 1 || raise <= 1) {
      return new InForce(configured, share);
    }
    double factor = Math.min(raise, 1 / share);
    return new InForce(configured * factor, Math.min(1, share * factor));
  }

  /** What {@link Probes#setSamplingRate(double, double)} is given. */
  private record InForce(double rate, double share) {}

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
    InForce inForce = inForce(rate, true);
    if (inForce.share() == Probes.invocationShare()) {
      return 0; // the rate leaves no room below the warm-up share
    }
    Probes.setSamplingRate(inForce.rate(), inForce.share());
    return inForce.share();
  }

  /**
   * Whether the share is the one it keeps from now on: lowered to the steady share, or never to be
   * lowered. Sampling windows start only then, so a window never raises the warm-up share (0.05
   * raised tenfold would send every other invocation to its copy).
   */
  synchronized boolean atSteadyShare() {
    return steady || jit == null;
  }

  /** The kill switch. */
  synchronized void setEnabled(boolean on) {
    Probes.setEnabled(on);
  }
}
