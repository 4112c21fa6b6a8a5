package dev.whyslow.agent.bootstrap;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** {@link Entries#entry()}: which invocations run their probes, their depth count, or neither. */
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
  void aShareLoweredMidRunTakesHoldAtOnceAndTheCopiesDrawAtTheRateOverIt() {
    Probes.setSamplingRate(1e-4, 0.05);
    entries(); // the warm-up share, as the JIT compiles
    Probes.setSamplingRate(1e-4, 0.01); // the JIT settled (SamplingPlan.poll)
    int[] counts = entries();
    // Binomial(200,000, 0.01): mean 2,000, sd 44.5; five sd either side.
    assertThat((double) counts[Probes.PROBES]).isCloseTo(2_000, within(225.0));
    assertThat(Probes.samplingRate()).as("what runs report").isEqualTo(1e-4);
    assertThat(Probes.rate.rate).as("the rate inside a copy").isCloseTo(0.01, within(1e-12));
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
      sampled += Entries.entry() == Probes.PROBES ? 1 : 0;
    }
    assertThat(sampled).isZero();
  }

  @Test
  void aShortMethodFollowsTheThreadsLastChoiceAndCountsNoInvocation() {
    Probes.setSamplingRate(1e-4, 0.05);
    int sampled = 0;
    for (int i = 0; i < CALLS; i++) {
      int choice = Entries.entry();
      int expected = choice == Probes.PROBES ? Probes.PROBES : Probes.OWN;
      assertThat(Entries.followingEntry()).isEqualTo(expected);
      assertThat(Entries.followingEntry()).as("it counted nothing").isEqualTo(expected);
      sampled += choice == Probes.PROBES ? 1 : 0;
    }
    assertThat((double) sampled).isCloseTo(10_000, within(500.0));
  }

  @Test
  void shortMethodsCalledBetweenChoicesRunTheirProbesWithTheShare() {
    Probes.setSamplingRate(1e-4, 0.05);
    Probes.state().reseed(42);
    int probes = 0;
    int calls = 0;
    for (int i = 0; i < CALLS; i++) {
      Entries.entry();
      for (int k = 0; k < i % 3; k++, calls++) { // zero, one or two short calls after each choice
        probes += Entries.followingEntry() == Probes.PROBES ? 1 : 0;
      }
    }
    // 200,000 calls in groups following one choice each: mean 10,000, sd about 130.
    assertThat(calls).isEqualTo(CALLS - 1);
    assertThat((double) probes).isCloseTo(10_000, within(800.0));
  }

  @Test
  void insideAUnitShortMethodsRunTheirOwnCodeOrDepthCountUnlessTheLastChoiceRanProbes() {
    Probes.setSamplingRate(1e-4, 0.05);
    Units.install(new RecordingUnitListener());
    Whyslow.unitBegin("test.unit");
    try {
      for (int i = 0; i < 20_000; i++) {
        int choice = Entries.entry(); // PROBES or DEPTH in a unit
        assertThat(Entries.followingCountedEntry()).isEqualTo(choice);
        assertThat(Entries.followingEntry())
            .as("one that counts no depth runs its own code")
            .isEqualTo(choice == Probes.PROBES ? Probes.PROBES : Probes.OWN);
      }
    } finally {
      Whyslow.unitEnd();
    }
  }

  @Test
  void aShortMethodRunsNoProbesWhenKilledBusyOrAfterARateChange() {
    Probes.setSamplingRate(1.0);
    Entries.entry();
    assertThat(Entries.followingEntry()).isEqualTo(Probes.PROBES);
    Probes.setEnabled(false);
    for (int i = 0; i < 1_000; i++) {
      Entries.entry();
      assertThat(Entries.followingEntry()).isEqualTo(Probes.OWN);
    }
    Probes.setEnabled(true);
    Probes.setSamplingRate(1e-6, 1e-6);
    assertThat(Entries.followingEntry())
        .as("the choice drawn at the resync, with a share of one in a million")
        .isEqualTo(Probes.OWN);
    Probes.setSamplingRate(1e-4, 1.0);
    ThreadState s = Probes.state();
    s.busy = true;
    try {
      Entries.entry();
      assertThat(Entries.followingEntry()).as("the sampled path's own call").isEqualTo(Probes.OWN);
    } finally {
      s.busy = false;
    }
  }

  @Test
  void aNewThreadsShortMethodsRunTheirProbesWithTheShareBeforeItsFirstChoice() throws Exception {
    Probes.setSamplingRate(1e-4, 0.05);
    int threads = 4_000;
    AtomicInteger probes = new AtomicInteger();
    for (int i = 0; i < threads; i++) {
      Thread t =
          new Thread(
              () -> {
                if (Entries.followingEntry() == Probes.PROBES) {
                  probes.incrementAndGet();
                }
              });
      t.start();
      t.join();
    }
    // Binomial(4,000, 0.05): mean 200, sd 14; before, a new thread's short methods never ran
    // theirs.
    assertThat((double) probes.get()).isCloseTo(200, within(80.0));
  }

  @Test
  void withAShareOfOneAShortMethodRunsItsProbesBeforeAnyChoice() {
    Probes.setSamplingRate(1.0);
    assertThat(Entries.followingEntry()).isEqualTo(Probes.PROBES);
  }

  private static int[] entries() {
    int[] counts = new int[3];
    for (int i = 0; i < CALLS; i++) {
      counts[Entries.entry()]++;
    }
    return counts;
  }
}
