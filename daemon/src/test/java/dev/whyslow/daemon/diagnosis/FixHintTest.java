package dev.whyslow.daemon.diagnosis;

import static org.assertj.core.api.Assertions.assertThat;

import dev.whyslow.protocol.SiteKind;
import org.junit.jupiter.api.Test;

class FixHintTest {

  @Test
  void aBranchFastRunsAvoidSuggestsChangingTheCondition() {
    // Successful runs reach the branch in 50 runs and go this way in 2 (4%).
    PredicateCounts counts = new PredicateCounts(40, 2, 45, 50, 50, 50);

    FixHint hint = FixHint.forPredicate(SiteKind.BRANCH, SiteKind.TAKEN, counts, null);

    assertThat(hint.strategy()).isEqualTo(FixStrategy.CHANGE_BRANCH_CONDITION);
    assertThat(hint.alternatives()).containsExactly(FixStrategy.OPTIMIZE_BRANCH_BODY);
    assertThat(hint.rationale()).contains("2 of 50 (4%)");
  }

  @Test
  void aBranchFastRunsAlsoTakeSuggestsOptimizingItsBody() {
    PredicateCounts counts = new PredicateCounts(45, 20, 45, 50, 50, 50);

    FixHint hint = FixHint.forPredicate(SiteKind.BRANCH, SiteKind.NOT_TAKEN, counts, null);

    assertThat(hint.strategy()).isEqualTo(FixStrategy.OPTIMIZE_BRANCH_BODY);
    assertThat(hint.strategy().words()).isEqualTo("optimize the branch body");
  }

  @Test
  void aLoopOnlySlowRunsExecuteSuggestsRemovingIt() {
    PredicateCounts counts = new PredicateCounts(30, 0, 30, 0, 40, 40);

    FixHint hint =
        FixHint.forPredicate(
            SiteKind.LOOP_BRANCH, SiteKind.TAKEN, counts, new BranchTokens(900, 30, 0, 0));

    assertThat(hint.strategy()).isEqualTo(FixStrategy.REMOVE_LOOP);
    assertThat(hint.rationale()).contains("30 of 40 failing runs").contains("none of 40");
  }

  @Test
  void aLoopWhoseInstancesRunLongerSuggestsReducingIterations() {
    // Per run: failing 100 iterations in 2 instances, successful 10 iterations in 2 instances.
    PredicateCounts counts = new PredicateCounts(50, 50, 50, 50, 50, 50);
    BranchTokens tokens = new BranchTokens(5_000, 100, 500, 100);

    FixHint hint = FixHint.forPredicate(SiteKind.LOOP_BRANCH, SiteKind.TAKEN, counts, tokens);

    assertThat(hint.strategy()).isEqualTo(FixStrategy.REDUCE_LOOP_ITERATIONS);
    assertThat(hint.rationale()).contains("1.0× as often").contains("10.0× as long");
  }

  @Test
  void aLoopEnteredMoreOftenSuggestsCombiningInstances() {
    // Per run: failing 20 instances of 5 iterations, successful 2 instances of 5 iterations.
    PredicateCounts counts = new PredicateCounts(50, 50, 50, 50, 50, 50);
    BranchTokens tokens = new BranchTokens(5_000, 1_000, 500, 100);

    FixHint hint = FixHint.forPredicate(SiteKind.LOOP_BRANCH, SiteKind.TAKEN, counts, tokens);

    assertThat(hint.strategy()).isEqualTo(FixStrategy.COMBINE_LOOP_ITERATIONS_OR_INSTANCES);
    assertThat(hint.strategy().words()).isEqualTo("combine loop iterations or instances");
  }

  @Test
  void theIteratingDirectionIsTheOneSampledMore() {
    // The same loop as above with javac's other layout: "not taken" iterates.
    PredicateCounts counts = new PredicateCounts(50, 50, 50, 50, 50, 50);
    BranchTokens tokens = new BranchTokens(1_000, 5_000, 100, 500);

    FixHint hint = FixHint.forPredicate(SiteKind.LOOP_BRANCH, SiteKind.NOT_TAKEN, counts, tokens);

    assertThat(hint.strategy()).isEqualTo(FixStrategy.COMBINE_LOOP_ITERATIONS_OR_INSTANCES);
  }

  @Test
  void tooFewSampledExitsDefaultToReducingIterations() {
    PredicateCounts counts = new PredicateCounts(50, 50, 50, 50, 50, 50);
    BranchTokens tokens = new BranchTokens(5_000, 3, 500, 2);

    FixHint hint = FixHint.forPredicate(SiteKind.LOOP_BRANCH, SiteKind.TAKEN, counts, tokens);

    assertThat(hint.strategy()).isEqualTo(FixStrategy.REDUCE_LOOP_ITERATIONS);
    assertThat(hint.rationale()).contains("100.00 sampled iterations per failing run", "(5)");
  }

  @Test
  void aReturnPredicateSuggestsOptimizingOrAvoidingTheCall() {
    PredicateCounts counts = new PredicateCounts(20, 1, 25, 30, 30, 30);

    FixHint hint = FixHint.forPredicate(SiteKind.RETURN_NUMERIC, SiteKind.GT, counts, null);

    assertThat(hint.strategy()).isEqualTo(FixStrategy.OPTIMIZE_OR_AVOID_CALL);
    assertThat(hint.strategy().words())
        .isEqualTo("optimize the function or avoid calling it in the slow case");
    assertThat(hint.rationale()).contains("returns > 0 in 20 of 25 failing runs");
  }

  @Test
  void scalarPairsAndUnknownSitesAskForInspection() {
    PredicateCounts counts = new PredicateCounts(20, 1, 25, 30, 30, 30);

    assertThat(FixHint.forPredicate(SiteKind.SCALAR_PAIR, 0, counts, null).strategy())
        .isEqualTo(FixStrategy.INSPECT_SITE);
    assertThat(FixHint.forPredicate(null, 0, counts, null).rationale()).contains("no metadata");
  }
}
