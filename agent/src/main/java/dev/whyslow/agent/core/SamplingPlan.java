package dev.whyslow.agent.core;

import dev.whyslow.agent.bootstrap.Probes;
import dev.whyslow.agent.config.InvocationSampling;

/**
 * The sampling rate and the kill switch, as the configuration and the daemon set them, turned into
 * what the probes use ({@link InvocationSampling}): at a rate where invocations are sampled, a
 * share of them runs its probes at the rate over the share; otherwise every invocation runs them at
 * the rate. Invocations are sampled only if they were at the start rate, since only then were
 * classes instrumented with the copies that make it pay: a JVM started at a high rate keeps running
 * every invocation's probes whatever rate the daemon sets later.
 */
final class SamplingPlan {
  private final InvocationSampling settings;

  SamplingPlan(InvocationSampling settings, double startRate) {
    this.settings =
        settings.usedAt(startRate) ? settings : new InvocationSampling(false, settings.share());
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
    Probes.setSamplingRate(rate, settings.shareAt(rate));
  }

  /** The kill switch. */
  synchronized void setEnabled(boolean on) {
    Probes.setEnabled(on);
  }
}
