package dev.whyslow.agent.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.whyslow.agent.bootstrap.Probes;
import dev.whyslow.agent.config.InvocationSampling;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Which share of invocations runs its probes, at which rate, as the rate changes. */
class SamplingPlanTest {
  private static final InvocationSampling TWENTIETH = new InvocationSampling(true, 0.05);
  private static final InvocationSampling LOWERED = new InvocationSampling(true, 0.05, 0.01, 1_000);

  @AfterEach
  void restoreProbes() {
    Probes.setEnabled(true);
    Probes.setSamplingRate(1e-4);
  }

  @Test
  void atAProductionRateAShareOfInvocationsRunsItsProbes() {
    SamplingPlan plan = new SamplingPlan(TWENTIETH, 1e-4, null);
    assertThat(plan.copies()).isTrue();
    plan.setRate(1e-4);
    assertThat(Probes.samplingRate()).as("what runs report").isEqualTo(1e-4);
    assertThat(Probes.invocationShare()).isEqualTo(0.05);
  }

  @Test
  void aboveATenthOfTheShareEveryInvocationRunsItsProbes() {
    SamplingPlan plan = new SamplingPlan(TWENTIETH, 1e-4, null);
    plan.setRate(0.01);
    assertThat(Probes.invocationShare()).isEqualTo(1.0);
    assertThat(Probes.samplingRate()).isEqualTo(0.01);
    plan.setRate(0.005);
    assertThat(Probes.invocationShare()).isEqualTo(0.05);
  }

  @Test
  void aJvmStartedAtAHighRateKeepsSamplingEveryInvocationWhenTheRateGoesDown() {
    SamplingPlan plan = new SamplingPlan(TWENTIETH, 0.5, null); // classes got no copies
    assertThat(plan.copies()).isFalse();
    plan.setRate(1e-4);
    assertThat(Probes.invocationShare()).isEqualTo(1.0);
    assertThat(Probes.samplingRate()).isEqualTo(1e-4);
  }

  @Test
  void offSamplesEveryInvocation() {
    SamplingPlan plan = new SamplingPlan(new InvocationSampling(false, 0.05), 1e-4, null);
    assertThat(plan.copies()).isFalse();
    plan.setRate(1e-4);
    assertThat(Probes.invocationShare()).isEqualTo(1.0);
  }

  @Test
  void onceTheJitHasSettledTheShareDropsToTheSteadyOneForGood() {
    boolean[] settled = {false};
    SamplingPlan plan = new SamplingPlan(LOWERED, 1e-4, settling(settled));
    plan.setRate(1e-4);
    assertThat(plan.poll()).as("the JIT still busy").isZero();
    assertThat(Probes.invocationShare()).isEqualTo(0.05);
    settled[0] = true;
    assertThat(plan.poll()).isEqualTo(0.01);
    assertThat(Probes.invocationShare()).isEqualTo(0.01);
    assertThat(Probes.samplingRate()).as("what runs report").isEqualTo(1e-4);
    assertThat(plan.poll()).as("once only").isZero();
    plan.setRate(2e-4); // the daemon's command, later
    assertThat(Probes.invocationShare()).isEqualTo(0.01);
    plan.setRate(0.004); // too high for the steady share, not for the warm-up one
    assertThat(Probes.invocationShare()).isEqualTo(0.05);
  }

  @Test
  void aWindowRaisesTheShareWithTheRateSoSampledInvocationsSampleAsOutsideIt() {
    SamplingPlan plan = new SamplingPlan(LOWERED, 1e-4, settling(new boolean[] {true}));
    plan.setRate(1e-4);
    plan.poll(); // the first poll only starts the JIT's clock
    plan.poll();
    assertThat(Probes.invocationShare()).as("settled").isEqualTo(0.01);
    double outside = Probes.samplingRate() / Probes.invocationShare();

    plan.raiseBy(10);
    assertThat(Probes.invocationShare()).isCloseTo(0.1, within(1e-12));
    assertThat(Probes.samplingRate()).isCloseTo(1e-3, within(1e-12));
    assertThat(Probes.samplingRate() / Probes.invocationShare()).isCloseTo(outside, within(1e-12));
    plan.setRate(2e-4); // the daemon's command, inside the window
    assertThat(Probes.samplingRate()).isCloseTo(2e-3, within(1e-12));
    assertThat(Probes.invocationShare()).isCloseTo(0.1, within(1e-12));

    plan.raiseBy(1);
    assertThat(Probes.invocationShare()).isEqualTo(0.01);
    assertThat(Probes.samplingRate()).isEqualTo(2e-4);
  }

  @Test
  void theShareIsSteadyOnceLoweredOrWhenItIsNeverLowered() {
    boolean[] settled = {false};
    SamplingPlan lowering = new SamplingPlan(LOWERED, 1e-4, settling(settled));
    lowering.setRate(1e-4);
    lowering.poll();
    assertThat(lowering.atSteadyShare()).as("the warm-up share").isFalse();
    settled[0] = true;
    lowering.poll();
    lowering.poll();
    assertThat(lowering.atSteadyShare()).isTrue();
    assertThat(new SamplingPlan(TWENTIETH, 1e-4, null).atSteadyShare()).isTrue();
  }

  @Test
  void withoutSampledInvocationsAWindowRaisesNothing() {
    SamplingPlan plan = new SamplingPlan(new InvocationSampling(false, 0.05), 1e-4, null);
    plan.setRate(1e-4);
    plan.raiseBy(10);
    assertThat(Probes.invocationShare()).isEqualTo(1.0);
    assertThat(Probes.samplingRate()).isEqualTo(1e-4);
  }

  @Test
  void aRateTooHighForTheSteadyShareKeepsTheWarmUpShare() {
    SamplingPlan plan = new SamplingPlan(LOWERED, 0.004, settling(new boolean[] {true}));
    plan.setRate(0.004);
    assertThat(plan.poll()).isZero();
    assertThat(Probes.invocationShare()).isEqualTo(0.05);
  }

  @Test
  void withoutCopiesNothingIsLowered() {
    SamplingPlan plan = new SamplingPlan(LOWERED, 0.5, settling(new boolean[] {true}));
    plan.setRate(1e-4);
    assertThat(plan.poll()).isZero();
    assertThat(Probes.invocationShare()).isEqualTo(1.0);
  }

  /** A JIT that has settled exactly when {@code settled[0]} says so. */
  private static JitSettling settling(boolean[] settled) {
    long[] now = {0};
    long[] compiled = {0};
    return new JitSettling(
        1_000,
        () -> compiled[0],
        () -> {
          now[0] += 2_000;
          compiled[0] += settled[0] ? 0 : 1_000;
          return now[0];
        });
  }

  @Test
  void theKillSwitchReachesTheProbes() {
    SamplingPlan plan = new SamplingPlan(TWENTIETH, 1e-4, null);
    plan.setEnabled(false);
    assertThat(Probes.isEnabled()).isFalse();
    plan.setEnabled(true);
    assertThat(Probes.isEnabled()).isTrue();
  }
}
