package dev.whyslow.agent.bootstrap;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** {@link Probes#entry()}: which invocations run their probes, their depth count, or neither. */
class InvocationSamplingTest {
  private static final int CALLS = 200_000;

  @AfterEach
  void restore() {
    Units.install(null);
    Probes.setEnabled(true);
    Probes.setSamplingRate(1e-4);
  }

  @Test
  void aShareOfInvocationsRunsItsProbesTheOthersTheirOwnCode() {
    Probes.setSamplingRate(1e-4, 0.05);
    int[] counts = entries();
    // Binomial(200,000, 0.05): mean 10,000, sd 97; five sd either side.
    assertThat((double) counts[Probes.PROBES]).isCloseTo(10_000, within(500.0));
    assertThat(counts[Probes.PROBES] + counts[Probes.OWN]).isEqualTo(CALLS);
  }

  @Test
  void insideAUnitTheOthersRunTheirDepthCount() {
    Probes.setSamplingRate(1e-4, 0.05);
    Units.install(new RecordingUnitListener());
    Whyslow.unitBegin("test.unit");
    int[] counts;
    try {
      counts = entries();
    } finally {
      Whyslow.unitEnd();
    }
    assertThat((double) counts[Probes.PROBES]).isCloseTo(10_000, within(500.0));
    assertThat(counts[Probes.OWN]).isZero();
    assertThat(counts[Probes.PROBES] + counts[Probes.DEPTH]).isEqualTo(CALLS);
  }

  @Test
  void withAShareOfOneEveryInvocationRunsItsProbes() {
    Probes.setSamplingRate(1.0);
    assertThat(entries()[Probes.PROBES]).isEqualTo(CALLS);
  }

  @Test
  void killedNoInvocationRunsItsProbes() {
    Probes.setSamplingRate(1e-4, 0.05);
    Probes.setEnabled(false);
    assertThat(entries()[Probes.PROBES]).isZero();
  }

  @Test
  void invocationsMadeByTheSampledPathItselfAreNotSampledAndTheCountdownGoesOn() {
    Probes.setSamplingRate(1e-4, 0.05);
    ThreadState s = Probes.state();
    s.busy = true;
    int[] busy;
    try {
      busy = entries();
    } finally {
      s.busy = false;
    }
    assertThat(busy[Probes.PROBES]).isZero();
    assertThat((double) entries()[Probes.PROBES]).isCloseTo(10_000, within(500.0));
  }

  @Test
  void aRateChangeDrawsAFreshCountdownRatherThanSamplingTheNextInvocation() {
    Probes.setSamplingRate(1e-6, 1e-6);
    int sampled = 0;
    for (int i = 0; i < 1_000; i++) {
      Probes.setSamplingRate(1e-6, 1e-6); // a new generation before every call
      sampled += Probes.entry() == Probes.PROBES ? 1 : 0;
    }
    assertThat(sampled).isZero();
  }

  private static int[] entries() {
    int[] counts = new int[3];
    for (int i = 0; i < CALLS; i++) {
      counts[Probes.entry()]++;
    }
    return counts;
  }
}
