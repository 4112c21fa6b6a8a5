package dev.whyslow.agent.units.training;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashMap;
import java.util.List;
import org.junit.jupiter.api.Test;

class PathSetTest {
  private static final TrainingSettings DEFAULTS = TrainingSettings.defaults();

  @Test
  void preOrderEntriesBecomeTheDistinctRootToLeafPaths() {
    // 1 > (2 > 3, 3), 1 > 2 > 3 again (a loop), 4
    UnitCallTrace trace = trace(new int[] {1, 2, 3, 3, 2, 3, 4}, new int[] {1, 2, 3, 2, 2, 3, 1});

    assertThat(PathSet.pathsOf(trace, DEFAULTS, new HashMap<>(), 0))
        .extracting(CallPath::toString)
        .containsExactly("[1, 2, 3]", "[1, 3]", "[4]");
  }

  @Test
  void aDepthJumpHangsTheEntryUnderItsPredecessorAndAnEmptyUnitHasOneEmptyPath() {
    UnitCallTrace jump = trace(new int[] {1, 2}, new int[] {1, 5});
    assertThat(PathSet.pathsOf(jump, DEFAULTS, new HashMap<>(), 0))
        .extracting(CallPath::toString)
        .containsExactly("[1, 2]");
    assertThat(PathSet.pathsOf(trace(new int[0], new int[0]), DEFAULTS, new HashMap<>(), 0))
        .extracting(CallPath::length)
        .containsExactly(0);
  }

  @Test
  void theFramesEveryUnitPassesBeforeBranchingFormTheTrunkAndAreLeftOut() {
    // 1 > 2 > (3 > 4, 5) and 1 > 2 > 6: the trunk is [1, 2].
    UnitCallTrace a = trace(new int[] {1, 2, 3, 4, 5}, new int[] {1, 2, 3, 4, 3});
    UnitCallTrace b = trace(new int[] {1, 2, 6}, new int[] {1, 2, 3});
    UnitCallTrace other = trace(new int[] {1, 7}, new int[] {1, 2});

    assertThat(PathSet.commonTrunk(List.of(a, b), DEFAULTS)).isEqualTo(2);
    assertThat(PathSet.commonTrunk(List.of(a, b, other), DEFAULTS)).isEqualTo(1);
    assertThat(PathSet.commonTrunk(List.of(b), DEFAULTS)).isEqualTo(2);
    assertThat(PathSet.pathsOf(a, DEFAULTS, new HashMap<>(), 2))
        .extracting(CallPath::toString)
        .containsExactly("[3, 4]", "[5]");
  }

  @Test
  void unitDistanceIsTheMeanOverAllPathPairsAndTheCentredOneIsZeroForIdenticalUnits() {
    PathSet x =
        new PathSet(List.of(new CallPath(new int[] {1, 2}), new CallPath(new int[] {1, 3})));
    PathSet y = new PathSet(List.of(new CallPath(new int[] {1, 2})));
    PathSet sameAsX =
        new PathSet(List.of(new CallPath(new int[] {1, 2}), new CallPath(new int[] {1, 3})));

    // Pairs: ([1,2],[1,2]) = 0 and ([1,3],[1,2]) = 1/2, mean 1/4.
    assertThat(PathSet.meanDistance(x, y)).isEqualTo(0.25);
    // x with itself: (0 + 1/2 + 1/2 + 0) / 4 = 1/4, y with itself 0: centred 1/4 - 1/8.
    assertThat(PathSet.meanDistance(x, sameAsX)).isEqualTo(0.25);
    assertThat(PathSet.centredDistance(x, y)).isEqualTo(0.125);
    assertThat(PathSet.centredDistance(x, sameAsX)).isZero();
  }

  @Test
  void hugeTracesAreReadOnlyUpToTheCaps() {
    int calls = 200_000;
    int[] methods = new int[calls];
    int[] depths = new int[calls];
    for (int i = 0; i < calls; i++) {
      methods[i] = i; // every entry a new method: distinct paths without end
      depths[i] = 1 + (i % 100); // chains 100 deep
    }
    UnitCallTrace huge = trace(methods, depths);
    TrainingSettings small = new TrainingSettings(0.1, 64, 8, 5, 16, 10_000, 32, 8, 2);

    List<CallPath> paths = PathSet.pathsOf(huge, small, new HashMap<>(), 0);

    assertThat(paths).hasSize(5).allSatisfy(p -> assertThat(p.length()).isEqualTo(16));
    long[] contexts = DistinctTrace.contextsOf(huge, small);
    assertThat(contexts).hasSize(32 * (10_000 / 100));
    for (long c : contexts) {
      assertThat(DistinctTrace.depthOf(c)).isBetween(1, 32);
    }
    TrainedUnitTypes types =
        UnitTypeTrainer.train(List.of(huge, huge, huge), m -> "m.M" + m, small);
    assertThat(types.typeCount()).isEqualTo(1);
    assertThat(types.typeName(0)).isEqualTo("e.Entry.run");
  }

  private static UnitCallTrace trace(int[] methods, int[] depths) {
    return new UnitCallTrace("e.Entry.run", methods, depths);
  }
}
