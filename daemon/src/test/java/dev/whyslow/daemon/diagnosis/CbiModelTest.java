package dev.whyslow.daemon.diagnosis;

import static dev.whyslow.daemon.diagnosis.TestRuns.branch;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.whyslow.daemon.diagnosis.CbiOptions.ImportanceBasis;
import dev.whyslow.protocol.Label;
import dev.whyslow.protocol.Site;
import dev.whyslow.protocol.SiteCounts;
import dev.whyslow.protocol.SiteKind;
import dev.whyslow.storage.StoredRun;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class CbiModelTest extends DiagnosisModelContract {
  private static final double EPS = 1e-9;
  private static final long A = 1;
  private static final long B = 2;
  private static final long C = 3;

  @Override
  DiagnosisModel model() {
    return new CbiModel();
  }

  /**
   * 20 failing runs f0..f19 and 30 successful runs s0..s29, three branch sites:
   *
   * <ul>
   *   <li>A: taken in f0..f11 and s0..s2, not taken in f12..f15 and s3..s23, unobserved elsewhere.
   *   <li>B: not taken in every run, also taken in f0..f9 and s0..s14 (noise: Increase 0).
   *   <li>C: taken in f16..f19, not taken in s0..s19 (a strong but thin predictor).
   * </ul>
   */
  private static List<StoredRun> handTable() {
    List<StoredRun> runs = new ArrayList<>();
    for (int i = 0; i < 20; i++) {
      List<SiteCounts> sites = new ArrayList<>();
      if (i < 12) {
        sites.add(branch(A, 1, 0));
      } else if (i < 16) {
        sites.add(branch(A, 0, 1));
      }
      sites.add(branch(B, i < 10 ? 1 : 0, 1));
      if (i >= 16) {
        sites.add(branch(C, 1, 0));
      }
      runs.add(TestRuns.run(i, Label.FAILURE, sites));
    }
    for (int i = 0; i < 30; i++) {
      List<SiteCounts> sites = new ArrayList<>();
      if (i < 3) {
        sites.add(branch(A, 1, 0));
      } else if (i < 24) {
        sites.add(branch(A, 0, 1));
      }
      sites.add(branch(B, i < 15 ? 1 : 0, 1));
      if (i < 20) {
        sites.add(branch(C, 0, 1));
      }
      runs.add(TestRuns.run(100 + i, Label.SUCCESS, sites));
    }
    return runs;
  }

  private static Map<Long, Site> branchSites(long... keys) {
    Map<Long, Site> sites = new java.util.HashMap<>();
    for (long key : keys) {
      sites.put(key, TestRuns.site(key, SiteKind.BRANCH));
    }
    return sites;
  }

  private static PredicateTable table(List<StoredRun> runs, long... keys) {
    // Only the named sites: the others in the runs have no metadata and are left out.
    return PredicateTable.from(runs, branchSites(keys), PredicateFilter.kinds(SiteKind.BRANCH));
  }

  @Test
  void handComputedTableMatchesEveryScore() {
    Ranking ranking = new CbiModel().rank(table(handTable(), A, B, C), DiagnosisOptions.defaults());

    // Only A "taken" passes. Its counts: F(true)=12 S(true)=3 F(obs)=16 S(obs)=24 NumF=20.
    //   Failure  = 12 / (12 + 3)                 = 0.8
    //   Context  = 16 / (16 + 24)                = 0.4
    //   Increase = 0.8 - 0.4                     = 0.4
    //   SE       = sqrt(0.8*0.2/15 + 0.4*0.6/40) = sqrt(0.0106667 + 0.006) = 0.12909944487358055
    //   z(0.99)  = Φ⁻¹(0.995)                    = 2.5758293035489
    //   LB       = 0.4 - 2.5758293035489 * 0.12909944487358055 = 0.06746186682273542
    //   recall   = ln 12 / ln 20 = 2.4849066 / 2.9957323       = 0.829482217661603
    //   Importance = 2 / (1/0.4 + 1/0.829482217661603)         = 0.5397278338774028
    // B: taken F=10/25=0.4, Context=20/50=0.4, Increase 0; not taken true everywhere, Increase 0.
    // C taken: LB = 0.8333 - 2.5758 * 0.0761 = 0.637 > 0, but true in 4 < 10 runs: dropped.
    assertThat(ranking.predicates()).hasSize(1);
    RankedPredicate top = ranking.predicates().get(0);
    assertThat(top.siteKey()).isEqualTo(A);
    assertThat(top.predicateIndex()).isEqualTo(SiteKind.TAKEN);
    assertThat(top.counts()).isEqualTo(new PredicateCounts(12, 3, 16, 24, 20, 30));
    CbiScores scores = (CbiScores) top.scores();
    assertThat(scores.round()).isEqualTo(1);
    assertThat(scores.effective()).isEqualTo(scores.initial());
    CbiStats s = scores.initial();
    assertThat(s.failure()).isCloseTo(0.8, within(EPS));
    assertThat(s.context()).isCloseTo(0.4, within(EPS));
    assertThat(s.increase()).isCloseTo(0.4, within(EPS));
    assertThat(s.standardError()).isCloseTo(0.12909944487358055, within(EPS));
    assertThat(s.lowerBound()).isCloseTo(0.06746186682273542, within(EPS));
    assertThat(s.recall()).isCloseTo(0.829482217661603, within(EPS));
    assertThat(s.importance()).isCloseTo(0.5397278338774028, within(EPS));
    // Elimination discards f0..f11 (and s0..s2); f12..f19 stay unexplained.
    assertThat(ranking.notes()).anyMatch(n -> n.startsWith("8 of 20 failing runs"));
  }

  @Test
  void lowerBoundImportanceUsesTheLowerBoundInsteadOfIncrease() {
    DiagnosisOptions options =
        DiagnosisOptions.defaults()
            .withCbi(CbiOptions.defaults().withImportance(ImportanceBasis.LOWER_BOUND));

    Ranking ranking = new CbiModel().rank(table(handTable(), A, B, C), options);

    // 2 / (1/0.06746186682273542 + 1/0.829482217661603) = 0.12477571315247665
    CbiStats s = ((CbiScores) ranking.predicates().get(0).scores()).initial();
    assertThat(s.importance()).isCloseTo(0.12477571315247665, within(EPS));
  }

  @Test
  void lowerMinimumSupportAdmitsThinPredictorsAndElimination() {
    DiagnosisOptions options =
        DiagnosisOptions.defaults().withCbi(CbiOptions.defaults().withMinSupport(4));

    Ranking ranking = new CbiModel().rank(table(handTable(), A, B, C), options);

    // C taken: Failure 1, Context 4/24, Increase 0.8333, recall ln 4 / ln 20 = 0.4628,
    // Importance 2 / (1/0.8333 + 1/0.4628) = 0.5950673591766571 beats A's 0.5397.
    assertThat(ranking.predicates()).extracting(RankedPredicate::siteKey).containsExactly(C, A);
    CbiScores c = (CbiScores) ranking.predicates().get(0).scores();
    assertThat(c.initial().importance()).isCloseTo(0.5950673591766571, within(EPS));
    // Round 2 discards f16..f19 (where C is true), which never observed A: only NumF drops to 16,
    // so A's recall becomes ln 12 / ln 16 = 0.8962406251802891.
    CbiScores a = (CbiScores) ranking.predicates().get(1).scores();
    assertThat(a.round()).isEqualTo(2);
    assertThat(a.effective().recall()).isCloseTo(Math.log(12) / Math.log(16), within(EPS));
    assertThat(a.effective().increase()).isCloseTo(0.4, within(EPS));
    assertThat(a.initial().recall()).isCloseTo(0.829482217661603, within(EPS));
  }

  /**
   * Two independent bugs among 40 failing and 40 successful runs, every site observed in every run:
   * X taken in f0..f24 and s0; Y taken in f25..f36; Z, a weaker echo of X, taken in f0..f21, s0,
   * s1.
   */
  @Test
  void iterativeEliminationFindsBothIndependentBugsAndDropsTheRedundantEcho() {
    long x = 10;
    long y = 11;
    long z = 12;
    List<StoredRun> runs = new ArrayList<>();
    for (int i = 0; i < 40; i++) {
      runs.add(
          TestRuns.run(
              i,
              Label.FAILURE,
              List.of(
                  branch(x, i < 25 ? 1 : 0, i < 25 ? 0 : 1),
                  branch(y, i >= 25 && i < 37 ? 1 : 0, i >= 25 && i < 37 ? 0 : 1),
                  branch(z, i < 22 ? 1 : 0, i < 22 ? 0 : 1))));
      runs.add(
          TestRuns.run(
              100 + i,
              Label.SUCCESS,
              List.of(
                  branch(x, i < 1 ? 1 : 0, i < 1 ? 0 : 1),
                  branch(y, 0, 1),
                  branch(z, i < 2 ? 1 : 0, i < 2 ? 0 : 1))));
    }

    Ranking ranking = new CbiModel().rank(table(runs, x, y, z), DiagnosisOptions.defaults());

    // Round 1 (NumF = 40, every Context = 40/80 = 0.5):
    //   X: Failure 25/26 = 0.961538, Increase 0.461538, recall ln25/ln40 = 0.872589,
    //      Importance 0.6037405037942282
    //   Y: Failure 12/12 = 1, Increase 0.5, recall ln12/ln40 = 0.673621, Importance
    // 0.5739680851313376
    //   Z: Failure 22/24 = 0.916667, Increase 0.416667, recall 0.837935, Importance 0.556574
    // X wins; its 26 runs go. Round 2 (NumF = 15, NumS = 39): Z is true in f0..f21 (all gone) and
    // s1 only, so Failure 0 and out. Y: Failure 1, Context 15/54 = 0.277778, Increase 0.722222,
    // SE = sqrt(0.277778*0.722222/54) = 0.060951906352257716,
    // LB = 0.722222 - 2.5758293*0.0609519 = 0.5652205157329084, recall ln12/ln15 = 0.917600,
    // Importance = 2 / (1/0.722222 + 1/0.917600) = 0.8082718686289969.
    // Y's runs go; 3 failing runs remain and no candidate is left.
    assertThat(ranking.predicates()).extracting(RankedPredicate::siteKey).containsExactly(x, y);
    CbiScores first = (CbiScores) ranking.predicates().get(0).scores();
    assertThat(first.round()).isEqualTo(1);
    assertThat(first.initial().importance()).isCloseTo(0.6037405037942282, within(EPS));
    CbiScores second = (CbiScores) ranking.predicates().get(1).scores();
    assertThat(second.round()).isEqualTo(2);
    assertThat(second.initial().importance()).isCloseTo(0.5739680851313376, within(EPS));
    assertThat(second.effective().counts()).isEqualTo(new PredicateCounts(12, 0, 15, 39, 15, 39));
    assertThat(second.effective().context()).isCloseTo(15.0 / 54, within(EPS));
    assertThat(second.effective().standardError()).isCloseTo(0.060951906352257716, within(EPS));
    assertThat(second.effective().lowerBound()).isCloseTo(0.5652205157329084, within(EPS));
    assertThat(second.effective().importance()).isCloseTo(0.8082718686289969, within(EPS));
    // The ranked predicate's counts stay the whole-window ones.
    assertThat(ranking.predicates().get(1).counts())
        .isEqualTo(new PredicateCounts(12, 0, 40, 40, 40, 40));
    assertThat(ranking.notes()).anyMatch(n -> n.startsWith("3 of 40 failing runs"));
  }

  @Test
  void noPassingPredicateIsReportedAsInsufficientWithTheTest() {
    // B alone: Increase 0 everywhere.
    Ranking ranking = new CbiModel().rank(table(handTable(), B), DiagnosisOptions.defaults());

    assertThat(ranking.predicates()).isEmpty();
    assertThat(ranking.insufficient())
        .singleElement()
        .satisfies(
            r ->
                assertThat(r)
                    .contains("no predicate passed CBI's test")
                    .contains("0.99 confidence")
                    .contains("at least 10 runs")
                    .contains("among 2 predicates"));
  }

  @Test
  void aPredicateTrueInEveryRunWhereItsSiteRunsHasNoIncrease() {
    // Song and Lu's loop: true 10x per successful run and 100x per failing run. CBI only sees
    // "true in every run", so it cannot rank it (ΔLDA can; see DeltaLdaModelTest).
    List<StoredRun> runs = new ArrayList<>();
    for (int i = 0; i < 20; i++) {
      runs.add(TestRuns.run(i, Label.FAILURE, List.of(branch(A, 100, 10))));
      runs.add(TestRuns.run(100 + i, Label.SUCCESS, List.of(branch(A, 10, 100))));
    }

    Ranking ranking = new CbiModel().rank(table(runs, A), DiagnosisOptions.defaults());

    assertThat(ranking.predicates()).isEmpty();
    assertThat(ranking.insufficient()).singleElement().asString().contains("no predicate passed");
  }
}
