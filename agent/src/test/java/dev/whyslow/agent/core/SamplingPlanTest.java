package dev.whyslow.agent.core;

import static org.assertj.core.api.Assertions.assertThat;

import dev.whyslow.agent.bootstrap.Probes;
import dev.whyslow.agent.config.InvocationSampling;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Which share of invocations runs its probes, at which rate, as the rate changes. */
class SamplingPlanTest {
  private static final InvocationSampling TWENTIETH = new InvocationSampling(true, 0.05);

  @AfterEach
  void restoreProbes() {
    Probes.setEnabled(true);
    Probes.setSamplingRate(1e-4);
  }

  @Test
  void atAProductionRateAShareOfInvocationsRunsItsProbes() {
    SamplingPlan plan = new SamplingPlan(TWENTIETH, 1e-4);
    assertThat(plan.copies()).isTrue();
    plan.setRate(1e-4);
    assertThat(Probes.samplingRate()).as("what runs report").isEqualTo(1e-4);
    assertThat(Probes.invocationShare()).isEqualTo(0.05);
  }

  @Test
  void aboveATenthOfTheShareEveryInvocationRunsItsProbes() {
    SamplingPlan plan = new SamplingPlan(TWENTIETH, 1e-4);
    plan.setRate(0.01);
    assertThat(Probes.invocationShare()).isEqualTo(1.0);
    assertThat(Probes.samplingRate()).isEqualTo(0.01);
    plan.setRate(0.005);
    assertThat(Probes.invocationShare()).isEqualTo(0.05);
  }

  @Test
  void aJvmStartedAtAHighRateKeepsSamplingEveryInvocationWhenTheRateGoesDown() {
    SamplingPlan plan = new SamplingPlan(TWENTIETH, 0.5); // classes got no copies
    assertThat(plan.copies()).isFalse();
    plan.setRate(1e-4);
    assertThat(Probes.invocationShare()).isEqualTo(1.0);
    assertThat(Probes.samplingRate()).isEqualTo(1e-4);
  }

  @Test
  void offSamplesEveryInvocation() {
    SamplingPlan plan = new SamplingPlan(new InvocationSampling(false, 0.05), 1e-4);
    assertThat(plan.copies()).isFalse();
    plan.setRate(1e-4);
    assertThat(Probes.invocationShare()).isEqualTo(1.0);
  }

  @Test
  void theKillSwitchReachesTheProbes() {
    SamplingPlan plan = new SamplingPlan(TWENTIETH, 1e-4);
    plan.setEnabled(false);
    assertThat(Probes.isEnabled()).isFalse();
    plan.setEnabled(true);
    assertThat(Probes.isEnabled()).isTrue();
  }
}
