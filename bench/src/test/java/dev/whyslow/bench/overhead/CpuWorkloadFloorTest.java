package dev.whyslow.bench.overhead;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/**
 * The floor is only a floor while it does the same work as {@code CpuWorkload} and counts every
 * evaluation the agent counts: if either changes, these fail before a benchmark reports a floor
 * that leaves work out.
 */
class CpuWorkloadFloorTest {
  @Test
  void theFloorCountsExactlyTheEvaluationsTheAgentRecordsAtRateOne() throws Throwable {
    for (int seed : new int[] {0, 7}) {
      assertThat(CountdownFloorBenchmark.floorEvaluations(seed))
          .as("evaluations in round %d", seed)
          .isEqualTo(CountdownFloorBenchmark.agentEvaluations(seed));
    }
  }

  @Test
  void theFloorComputesWhatTheWorkloadComputes() throws Exception {
    Class<?> workload = Class.forName(CountdownFloorBenchmark.WORKLOAD);
    var round = workload.getDeclaredMethod("round", int.class);
    round.setAccessible(true);
    for (int seed = 0; seed < 3; seed++) {
      assertThat(CpuWorkloadFloor.round(seed)).isEqualTo(round.invoke(null, seed));
    }
  }

  @Test
  void atOneInTenThousandTheFloorSamplesAboutOneEvaluationInTenThousand() {
    CpuWorkloadFloor.Countdown.rate(1e-4);
    long before = CpuWorkloadFloor.Countdown.samples;
    long evaluations = 0;
    for (int seed = 0; seed < 8; seed++) {
      evaluations += CountdownFloorBenchmark.floorEvaluations(seed);
    }
    CpuWorkloadFloor.Countdown.rate(1e-4);
    for (int seed = 0; seed < 8; seed++) {
      CpuWorkloadFloor.round(seed);
    }
    long samples = CpuWorkloadFloor.Countdown.samples - before;
    // About 2,300 expected; a Poisson count that far off means the draws are wrong.
    assertThat((double) samples)
        .isCloseTo(
            evaluations * 1e-4, org.assertj.core.data.Offset.offset(evaluations * 1e-4 * 0.15));
  }
}
