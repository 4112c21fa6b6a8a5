package dev.whyslow.agent.bootstrap;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class SamplerTest {
  @AfterEach
  void restoreDefaults() {
    Probes.setProcessRun(null);
    Probes.setSamplingRate(1e-4);
    Probes.setEnabled(true);
  }

  @Test
  void countdownsHaveMeanOneOverRate() {
    ThreadState s = new ThreadState();
    for (double rate : new double[] {0.5, 0.01, 1e-4}) {
      SamplingRate r = SamplingRate.of(rate);
      int n = 200_000;
      double sum = 0;
      int min = Integer.MAX_VALUE;
      for (int i = 0; i < n; i++) {
        int d = s.draw(r);
        sum += d;
        min = Math.min(min, d);
      }
      double mean = sum / n;
      // Geometric: sd = sqrt(1-p)/p, so the standard error of the mean is about 1/(p sqrt(n)).
      assertThat(mean)
          .as("mean countdown at rate %s", rate)
          .isCloseTo(1 / rate, within(5 / (rate * Math.sqrt(n))));
      assertThat(min).isEqualTo(1);
    }
  }

  @Test
  void countdownsAreGeometricNotFixed() {
    ThreadState s = new ThreadState();
    SamplingRate r = SamplingRate.of(0.1);
    int ones = 0;
    int n = 100_000;
    for (int i = 0; i < n; i++) {
      if (s.draw(r) == 1) {
        ones++;
      }
    }
    // P(next = 1) = rate for a geometric distribution.
    assertThat(ones / (double) n).isCloseTo(0.1, within(0.01));
  }

  @Test
  void rateOneRecordsEveryEvaluation() {
    ThreadState s = new ThreadState();
    SamplingRate one = SamplingRate.of(1.0);
    for (int i = 0; i < 1000; i++) {
      assertThat(s.draw(one)).isEqualTo(1);
    }
    Probes.setSamplingRate(1.0);
    ChunkedRunCounts run = new ChunkedRunCounts(64);
    Probes.setProcessRun(run);
    ThreadState state = Probes.state();
    for (int i = 0; i < 10; i++) {
      Probes.ifeq(i % 2, state, 0); // taken when i is even
    }
    assertThat(run.get(0)).isEqualTo(10);
    assertThat(run.get(1)).isEqualTo(5);
    assertThat(run.get(2)).isEqualTo(5);
  }

  @Test
  void numericReturnsRecordTheSixSignPredicates() {
    Probes.setSamplingRate(1.0);
    ChunkedRunCounts run = new ChunkedRunCounts(64);
    Probes.setProcessRun(run);
    ThreadState s = Probes.state();
    Probes.returnInt(-5, s, 0);
    Probes.returnLong(0L, s, 0);
    Probes.returnDouble(2.5, s, 0);
    Probes.returnFloat(Float.NaN, s, 0);
    assertThat(run.get(0)).isEqualTo(4);
    // < 0, <= 0, > 0, >= 0, == 0, != 0
    long[] expected = {1, 2, 1, 2, 1, 3};
    for (int i = 0; i < 6; i++) {
      assertThat(run.get(1 + i)).as("predicate %d", i).isEqualTo(expected[i]);
    }
  }

  @Test
  void killSwitchStopsRecordingAndReenablingResumes() {
    Probes.setSamplingRate(1.0);
    ChunkedRunCounts run = new ChunkedRunCounts(64);
    Probes.setProcessRun(run);
    Probes.setEnabled(false);
    ThreadState s = Probes.state();
    assertThat(s.countdown).isEqualTo(Integer.MAX_VALUE);
    for (int i = 0; i < 100; i++) {
      Probes.ifne(1, s, 0);
    }
    assertThat(run.get(0)).isZero();
    Probes.setEnabled(true);
    s = Probes.state();
    Probes.ifne(1, s, 0);
    assertThat(run.get(0)).isEqualTo(1);
  }

  @Test
  void agentWorkIsNeverRecorded() {
    Probes.setSamplingRate(1.0);
    ChunkedRunCounts run = new ChunkedRunCounts(64);
    Probes.setProcessRun(run);
    boolean was = Probes.enterAgentWork();
    try {
      ThreadState s = Probes.state();
      for (int i = 0; i < 100; i++) {
        Probes.ifNull(null, s, 0);
      }
    } finally {
      Probes.exitAgentWork(was);
    }
    assertThat(run.get(0)).isZero();
    Probes.ifNull(null, Probes.state(), 0);
    assertThat(run.get(0)).isEqualTo(1);
  }

  @Test
  void probesHitInsideTheSampledPathAreIgnored() {
    Probes.setSamplingRate(1.0);
    ThreadState s = Probes.state();
    RunCounts reentrant =
        new RunCounts() {
          final ChunkedRunCounts inner = new ChunkedRunCounts(64);

          @Override
          public void increment(int slot) {
            Probes.ifeq(0, s, 10); // what instrumented java.util code would do
            inner.increment(slot);
          }

          @Override
          public long get(int slot) {
            return inner.get(slot);
          }

          @Override
          public int capacity() {
            return 64;
          }
        };
    s.setCurrentRun(reentrant);
    try {
      Probes.ifeq(0, s, 0);
    } finally {
      s.setCurrentRun(null);
    }
    assertThat(reentrant.get(0)).isEqualTo(1);
    assertThat(reentrant.get(10)).isZero();
    assertThat(s.countdown).isEqualTo(1);
  }

  @Test
  void failuresInTheSampledPathAreCountedNotThrown() {
    Probes.setSamplingRate(1.0);
    Probes.setProcessRun(new ChunkedRunCounts(4));
    long before = AgentErrors.count();
    Probes.returnInt(1, Probes.state(), 100); // slot beyond capacity
    assertThat(AgentErrors.count()).isEqualTo(before + 1);
  }

  @Test
  void ratesOutsideTheAcceptedRangeAreRefused() {
    assertThatThrownBy(() -> SamplingRate.of(2)).hasMessageContaining("[1e-6, 1]");
    assertThatThrownBy(() -> SamplingRate.of(1e-7)).hasMessageContaining("1.0E-7");
  }

  @Test
  void chunksAreAllocatedOnlyWhenTouched() {
    ChunkedRunCounts counts = new ChunkedRunCounts(3 * ChunkedRunCounts.CHUNK_SIZE);
    assertThat(counts.get(2 * ChunkedRunCounts.CHUNK_SIZE + 5)).isZero();
    counts.increment(2 * ChunkedRunCounts.CHUNK_SIZE + 5);
    assertThat(counts.get(2 * ChunkedRunCounts.CHUNK_SIZE + 5)).isEqualTo(1);
    assertThat(counts.capacity()).isEqualTo(3 * ChunkedRunCounts.CHUNK_SIZE);
  }
}
