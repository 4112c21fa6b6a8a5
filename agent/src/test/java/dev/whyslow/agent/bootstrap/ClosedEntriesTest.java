package dev.whyslow.agent.bootstrap;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * While the entries are closed ({@link Entries#setOpen}) a guard method's entry samples nothing but
 * still runs the guard's copy in a unit that needs it; the other entries are closed by the test in
 * front of them, in the instrumented method ({@code MethodCopiesTest}).
 */
class ClosedEntriesTest {
  @BeforeEach
  void everyInvocationSampled() {
    Probes.setSamplingRate(1.0);
    Units.install(new RecordingUnitListener());
  }

  @AfterEach
  void reopen() {
    Entries.setOpen(true);
    Units.install(null);
    Probes.setSamplingRate(1e-4);
  }

  @Test
  void aClosedGuardEntrySamplesNothingAndStillRunsTheGuardsCopyInAUnit() {
    assertThat(Entries.guardEntry()).as("open: sampled").isEqualTo(Probes.PROBES);
    Entries.setOpen(false);

    assertThat(Entries.guardEntry()).as("outside a unit").isEqualTo(Probes.OWN);
    assertThat(Entries.followingGuardEntry()).isEqualTo(Probes.OWN);
    Units.begin("com.acme.Router.handle");
    try {
      assertThat(Entries.guardEntry()).isEqualTo(Probes.DEPTH);
      assertThat(Entries.followingGuardEntry()).isEqualTo(Probes.DEPTH);
    } finally {
      Units.end();
    }

    Entries.setOpen(true);
    assertThat(Entries.guardEntry()).isEqualTo(Probes.PROBES);
    assertThat(Entries.followingGuardEntry()).isEqualTo(Probes.PROBES);
  }

  @Test
  void aSiteWithItsProbesInlineRecordsNothingWhileTheEntriesAreClosed() {
    ThreadState s = Probes.state();
    RunCounts run = new ChunkedRunCounts(64);
    RunCounts saved = s.currentRun;
    s.currentRun = run;
    try {
      Entries.setOpen(false);
      s.countdown = 1;
      Probes.ifeq(0, s, 8 | Probes.CHECK_SHARE);
      assertThat(run.get(8)).as("closed").isZero();

      Entries.setOpen(true);
      s.countdown = 1;
      Probes.ifeq(0, s, 8 | Probes.CHECK_SHARE);
      assertThat(run.get(8)).as("open, share 1").isOne();
    } finally {
      s.currentRun = saved;
    }
  }
}
