package dev.whyslow.examples.eval;

import static org.assertj.core.api.Assertions.assertThat;

import dev.whyslow.protocol.Label;
import dev.whyslow.protocol.Run;
import dev.whyslow.protocol.RunKind;
import dev.whyslow.protocol.Site;
import dev.whyslow.protocol.SiteCounts;
import dev.whyslow.protocol.SiteKind;
import dev.whyslow.storage.RunOrigin;
import dev.whyslow.storage.StoredRun;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class EmulatedRunsTest {
  static final Site LOOP =
      new Site(5, "X", "scan", "()V", "X.java", 3, SiteKind.LOOP_BRANCH, 0, "if_icmpge");

  /** Four good and four bad rate-1 runs, seeds 1 to 4, stored in scrambled order. */
  static List<StoredRun> pool() {
    List<StoredRun> pool = new ArrayList<>();
    long id = 100;
    for (int seed : new int[] {3, 1, 4, 2}) {
      for (boolean bad : new boolean[] {false, true}) {
        long iterations = bad ? 1_000_000 : 1_000;
        Run run =
            new Run(
                1,
                RunKind.PROCESS,
                0,
                1,
                bad ? Label.FAILURE : Label.SUCCESS,
                "",
                1.0,
                List.of(new SiteCounts(LOOP.key(), iterations + 1, new long[] {1, iterations})));
        pool.add(
            new StoredRun(id++, new RunOrigin("svc", (bad ? "bad-" : "good-") + seed, "e"), run));
      }
    }
    return pool;
  }

  @Test
  void upToTheRealRunCountTheSameInputsAreUsedInSeedOrder() {
    EmulatedRuns emulation = new EmulatedRuns(pool(), Map.of(LOOP.key(), LOOP), 1e-3, 2);
    List<StoredRun> runs = emulation.draw(2, new SplittableRandom(1));
    assertThat(runs)
        .extracting(r -> r.origin().instance())
        .containsExactly("good-1", "good-2", "bad-1", "bad-2");
    assertThat(runs).extracting(StoredRun::runId).containsExactly(1L, 2L, 3L, 4L);
    assertThat(runs).allSatisfy(r -> assertThat(r.run().samplingRate()).isEqualTo(1e-3));
  }

  @Test
  void moreRunsThanThePoolHoldsAreDrawnWithReplacementAndThinnedAfresh() {
    EmulatedRuns emulation = new EmulatedRuns(pool(), Map.of(LOOP.key(), LOOP), 1e-3, 2);
    List<StoredRun> runs = emulation.draw(50, new SplittableRandom(2));
    assertThat(runs).hasSize(100);
    assertThat(runs.subList(0, 50)).allSatisfy(r -> assertThat(r.label()).isEqualTo(Label.SUCCESS));
    assertThat(runs.subList(50, 100))
        .allSatisfy(r -> assertThat(r.label()).isEqualTo(Label.FAILURE));
    Set<String> inputs = new HashSet<>();
    Set<Long> badCounts = new HashSet<>();
    for (StoredRun run : runs) {
      inputs.add(run.origin().instance());
      if (run.label() == Label.FAILURE) {
        badCounts.add(run.run().sites().get(0).observed());
      }
    }
    assertThat(inputs).hasSize(8);
    // Binomial(1,000,001, 0.001) has mean 1000 and sd 32: fifty draws are not all alike.
    assertThat(badCounts.size()).isGreaterThan(10);
  }

  @Test
  void trialsOfOneSettingGetDifferentFixedSeeds() {
    Workload workload = WorkloadCatalog.all().get(0);
    assertThat(EmulatedRuns.trialSeed(workload, 100, 1))
        .isEqualTo(EmulatedRuns.trialSeed(workload, 100, 1))
        .isNotEqualTo(EmulatedRuns.trialSeed(workload, 100, 2))
        .isNotEqualTo(EmulatedRuns.trialSeed(workload, 1000, 1));
  }
}
