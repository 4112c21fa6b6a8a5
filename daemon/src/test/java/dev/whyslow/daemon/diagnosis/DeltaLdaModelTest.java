package dev.whyslow.daemon.diagnosis;

import static dev.whyslow.daemon.diagnosis.TestRuns.branch;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import dev.whyslow.protocol.Label;
import dev.whyslow.protocol.Site;
import dev.whyslow.protocol.SiteCounts;
import dev.whyslow.protocol.SiteKind;
import dev.whyslow.storage.StoredRun;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CancellationException;
import java.util.function.IntFunction;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class DeltaLdaModelTest extends DiagnosisModelContract {

  @Override
  DiagnosisModel model() {
    return new DeltaLdaModel();
  }

  @Override
  DiagnosisOptions options() {
    // Fewer sweeps than the default keep the contract fast; the planted bug needs no more.
    return DiagnosisOptions.defaults().withDeltaLda(DeltaLdaOptions.defaults().withSweeps(60));
  }

  /**
   * deltaLDA 0.1.1's {@code test/testDeltaLDA.py::testDelta}: six documents over five words, the
   * last two failing, 2 usage + 1 bug topic, α = [.1,.1,0] / [.1,.1,.1], β = 1, 50 sweeps, final
   * sample. Word 0 only occurs in the failing documents, so it must define the bug topic and the
   * failing documents must be mostly bug topic.
   */
  @ParameterizedTest
  @ValueSource(longs = {194582L, 821945L})
  void portsDeltaLdaGoldenTest(long seed) {
    int[][] docs = {
      {1, 1, 2}, {1, 1, 1, 1, 2}, {3, 3, 3, 4}, {3, 3, 4, 4, 3, 3}, {0, 0, 0, 0, 0}, {0, 0, 0, 0}
    };
    boolean[] failing = {false, false, false, false, true, true};
    PredicateTableBuilder builder = PredicateTable.builder(PredicateFilter.all());
    int site = builder.addSite(1, null, 5);
    for (int d = 0; d < docs.length; d++) {
      builder.beginRun(d, failing[d]);
      for (int word : docs[d]) {
        builder.addTrue(site, word, 1);
      }
      builder.endRun();
    }
    PredicateTable table = builder.build();
    DeltaLdaOptions options =
        DeltaLdaOptions.defaults()
            .withSeed(seed)
            .withSweeps(50)
            .finalSampleOnly()
            .withDropWordsAbsentFromFailingRuns(false);

    DeltaLdaFit fit = new DeltaLdaModel().fit(table, options);

    assertThat(fit.wordCount()).isEqualTo(5);
    assertThat(fit.samples()).isEqualTo(1);
    for (int w = 0; w < 5; w++) {
      assertThat(fit.predicate(w)).isEqualTo(w);
    }
    assertThat(argmax(fit, 4)).isEqualTo(2);
    assertThat(argmax(fit, 5)).isEqualTo(2);
    int topWord = 0;
    for (int w = 1; w < 5; w++) {
      if (fit.phi(2, w) > fit.phi(2, topWord)) {
        topWord = w;
      }
    }
    assertThat(topWord).isZero();
    for (int t = 0; t < 3; t++) {
      double sum = 0;
      for (int w = 0; w < 5; w++) {
        sum += fit.phi(t, w);
      }
      assertThat(sum).isCloseTo(1.0, within(1e-9));
    }
    for (int d = 0; d < docs.length; d++) {
      assertThat(fit.theta(d, 0) + fit.theta(d, 1) + fit.theta(d, 2)).isCloseTo(1.0, within(1e-9));
      if (!failing[d]) {
        // α_bug = 0 for successful runs: the bug topic is closed to them.
        assertThat(fit.theta(d, 2)).isZero();
      }
    }
    assertThat(fit.failingShare(2)).isEqualTo(1.0);
    assertThat(fit.failingShare(0)).isLessThan(0.5);
    assertThat(fit.failingShare(1)).isLessThan(0.5);
  }

  private static int argmax(DeltaLdaFit fit, int run) {
    int best = 0;
    for (int t = 1; t < fit.topicCount(); t++) {
      if (fit.theta(run, t) > fit.theta(run, best)) {
        best = t;
      }
    }
    return best;
  }

  @Test
  void findsTheLoopThatIteratesMoreWhichCbiCannotSee() {
    // Song and Lu §3.1.2: true 10x / false 100x per successful run, 100x / 10x per failing run.
    long loop = 5;
    Map<Long, Site> sites = new java.util.HashMap<>();
    sites.put(loop, TestRuns.site(loop, SiteKind.LOOP_BRANCH));
    List<StoredRun> runs = new ArrayList<>();
    for (int i = 0; i < 20; i++) {
      List<SiteCounts> failing = new ArrayList<>();
      List<SiteCounts> success = new ArrayList<>();
      failing.add(branch(loop, 100, 10));
      success.add(branch(loop, 10, 100));
      for (long k = 20; k < 40; k++) {
        sites.put(k, TestRuns.site(k, SiteKind.LOOP_BRANCH));
        failing.add(branch(k, 5 + (i + k) % 5, 1));
        success.add(branch(k, 5 + (i * 3 + k) % 5, 1));
      }
      runs.add(TestRuns.run(i, Label.FAILURE, failing));
      runs.add(TestRuns.run(100 + i, Label.SUCCESS, success));
    }
    PredicateTable table = PredicateTable.from(runs, sites, PredicateFilter.loopBranches());

    Ranking lda = new DeltaLdaModel().rank(table, DiagnosisOptions.defaults());
    Ranking cbi = new CbiModel().rank(table, DiagnosisOptions.defaults());

    assertThat(lda.predicates().get(0).siteKey()).isEqualTo(loop);
    assertThat(lda.predicates().get(0).predicateIndex()).isEqualTo(SiteKind.TAKEN);
    DeltaLdaScores scores = (DeltaLdaScores) lda.predicates().get(0).scores();
    assertThat(scores.bugTopic()).isEqualTo(2);
    assertThat(scores.bugGivenWord()).isGreaterThan(0.5);
    assertThat(scores.failingTokens()).isEqualTo(2000);
    assertThat(scores.successTokens()).isEqualTo(200);
    assertThat(cbi.predicates()).isEmpty();
  }

  @Test
  void theTopPredictorIsStableAcrossSeeds() {
    PlantedBug data = new PlantedBug(50, 50, 31);
    PredicateTable table =
        PredicateTable.from(data.runs, data.sites(), PredicateFilter.loopBranches());

    for (long seed = 1; seed <= 4; seed++) {
      DiagnosisOptions options =
          options().withDeltaLda(DeltaLdaOptions.defaults().withSweeps(60).withSeed(seed));
      RankedPredicate top = new DeltaLdaModel().rank(table, options).predicates().get(0);
      assertThat(top.siteKey()).as("seed %d", seed).isEqualTo(PlantedBug.BUG_SITE);
      assertThat(top.predicateIndex()).as("seed %d", seed).isEqualTo(SiteKind.TAKEN);
    }
  }

  @Test
  void thinsTokensWithOneGlobalRateWhenOverBudget() {
    PlantedBug data = new PlantedBug(40, 40, 8);
    PredicateTable table =
        PredicateTable.from(data.runs, data.sites(), PredicateFilter.loopBranches());
    DeltaLdaOptions lda = DeltaLdaOptions.defaults().withSweeps(60).withMaxTokens(3_000);

    DeltaLdaFit fit = new DeltaLdaModel().fit(table, lda);
    Ranking ranking = new DeltaLdaModel().rank(table, options().withDeltaLda(lda));

    assertThat(fit.thinningRate()).isLessThan(1);
    assertThat(fit.tokens()).isBetween(2_500L, 3_500L);
    assertThat(ranking.notes()).anyMatch(n -> n.contains("thinned"));
    assertThat(ranking.predicates().get(0).siteKey()).isEqualTo(PlantedBug.BUG_SITE);
  }

  @Test
  void dropsPredicatesNeverTrueInAFailingRunByDefault() {
    PredicateTableBuilder builder = PredicateTable.builder(PredicateFilter.all());
    int site = builder.addSite(1, null, 3);
    for (int d = 0; d < 4; d++) {
      builder.beginRun(d, d < 2);
      builder.addTrue(site, 0, 3);
      builder.addTrue(site, d < 2 ? 1 : 2, 2);
      builder.endRun();
    }

    DeltaLdaFit fit = new DeltaLdaModel().fit(builder.build(), DeltaLdaOptions.defaults());

    assertThat(fit.wordCount()).isEqualTo(2);
    assertThat(fit.predicate(0)).isZero();
    assertThat(fit.predicate(1)).isEqualTo(1);
  }

  /**
   * The CsvColumnLookup flake (DiagnosisEvaluationIT, one run in 30): a {@code main} loop, invoked
   * once per run, sampled whole in one failing run of ten and in no successful run, brings more
   * tokens than the real loop's excess; ΔLDA gives them all to the bug topic unless left out.
   */
  @Test
  void leavesOutALoopSeenInOneFailingRunOnly() {
    long lookup = 5;
    long mainLoop = 27;
    PredicateTable table =
        tenFailingThenTenSuccessful(
            i -> {
              List<SiteCounts> counts = new ArrayList<>();
              counts.add(i < 10 ? branch(lookup, 30, 3) : branch(lookup, 8, 3));
              if (i == 0) {
                counts.add(branch(mainLoop, 400, 1));
              }
              return counts;
            },
            lookup,
            mainLoop);
    DeltaLdaOptions keepAll = options().deltaLda().withOneSidedSignificance(1);

    Ranking withEverything = new DeltaLdaModel().rank(table, options().withDeltaLda(keepAll));
    Ranking ranking = new DeltaLdaModel().rank(table, options());

    assertThat(withEverything.predicates().get(0).siteKey()).isEqualTo(mainLoop);
    assertThat(ranking.predicates()).extracting(RankedPredicate::siteKey).containsOnly(lookup);
    assertThat(ranking.predicates().get(0).predicateIndex()).isEqualTo(SiteKind.TAKEN);
    assertThat(ranking.notes())
        .filteredOn(n -> n.contains("too few"))
        .singleElement()
        .asString()
        .startsWith("2 predicates true in failing runs only, in too few of the 10")
        .contains(
            "left out: Cart.method27 (Cart.java:27) \"taken\"; Cart.method27 (Cart.java:27) \"not"
                + " taken\".");
  }

  @Test
  void keepsALoopReachedInFailingRunsOnlyWhenItIsInEnoughOfThem() {
    long common = 5;
    long slowPath = 9;
    PredicateTable table =
        tenFailingThenTenSuccessful(
            i ->
                i < 10 && i % 2 == 0
                    ? List.of(branch(common, 10, 2), branch(slowPath, 25, 1))
                    : List.of(branch(common, 10, 2)),
            common,
            slowPath);

    Ranking ranking = new DeltaLdaModel().rank(table, options().withMinRuns(10, 10));

    // Five failing runs of ten, none of the successful ones: C(10,5)/C(20,5) = 0.016.
    assertThat(ranking.predicates().get(0).siteKey()).isEqualTo(slowPath);
    assertThat(ranking.notes()).noneMatch(n -> n.contains("too few"));
  }

  /** Runs 0-9 failing, 10-19 successful, each with {@code counts.apply(run)}, over loop sites. */
  private static PredicateTable tenFailingThenTenSuccessful(
      IntFunction<List<SiteCounts>> counts, long... loopSites) {
    Map<Long, Site> sites = new java.util.HashMap<>();
    for (long key : loopSites) {
      sites.put(key, TestRuns.site(key, SiteKind.LOOP_BRANCH));
    }
    List<StoredRun> runs = new ArrayList<>();
    for (int i = 0; i < 20; i++) {
      runs.add(TestRuns.run(i + 1, i < 10 ? Label.FAILURE : Label.SUCCESS, counts.apply(i)));
    }
    return PredicateTable.from(runs, sites, PredicateFilter.loopBranches());
  }

  @Test
  void oneSidedChanceIsFishersExactTestOnTheRuns() {
    // C(10,k)/C(20,k): k = 3 gives 0.105, k = 4 0.043.
    assertThat(DeltaLdaModel.lacksBaseline(new PredicateCounts(3, 0, 3, 0, 10, 10), 0.05)).isTrue();
    assertThat(DeltaLdaModel.lacksBaseline(new PredicateCounts(4, 0, 4, 0, 10, 10), 0.05))
        .isFalse();
    assertThat(DeltaLdaModel.lacksBaseline(new PredicateCounts(3, 0, 3, 0, 10, 10), 0.11))
        .isFalse();
    // Observed once in a successful run: a baseline exists, whatever the counts.
    assertThat(DeltaLdaModel.lacksBaseline(new PredicateCounts(1, 0, 1, 1, 10, 10), 0.05))
        .isFalse();
    // Few failing units among many successful ones: one is already unlikely by chance.
    assertThat(DeltaLdaModel.lacksBaseline(new PredicateCounts(1, 0, 1, 0, 50, 5_000), 0.05))
        .isFalse();
    assertThat(DeltaLdaModel.lacksBaseline(new PredicateCounts(1, 0, 1, 0, 10, 10), 1.0)).isFalse();
  }

  @Test
  void saysWhyWhenEveryPredicateLacksABaseline() {
    PredicateTableBuilder builder = PredicateTable.builder(PredicateFilter.loopBranches());
    int site = builder.addSite(1, TestRuns.site(1, SiteKind.LOOP_BRANCH), 2);
    for (int d = 0; d < 20; d++) {
      builder.beginRun(d, d < 10);
      if (d == 0) {
        builder.addTrue(site, 0, 300);
      }
      builder.endRun();
    }

    Ranking ranking = new DeltaLdaModel().rank(builder.build(), options());

    assertThat(ranking.predicates()).isEmpty();
    assertThat(ranking.insufficient())
        .singleElement()
        .asString()
        .startsWith("1 predicate true in failing runs only, in too few of the 10 for chance")
        .contains("oneSided=1 keeps them (now 0.05)");
  }

  @Test
  void stopsBetweenSweepsWhenInterrupted() {
    PlantedBug data = new PlantedBug(20, 20, 8);
    PredicateTable table =
        PredicateTable.from(data.runs, data.sites(), PredicateFilter.loopBranches());
    Thread.currentThread().interrupt();
    try {
      assertThatThrownBy(() -> new DeltaLdaModel().fit(table, DeltaLdaOptions.defaults()))
          .isInstanceOf(CancellationException.class)
          .hasMessageContaining("after 0 sweeps");
    } finally {
      Thread.interrupted();
    }
  }

  @Test
  void saysSoWhenNoPredicateIsTrueInFailingRuns() {
    PredicateTableBuilder builder = PredicateTable.builder(PredicateFilter.loopBranches());
    int site = builder.addSite(1, TestRuns.site(1, SiteKind.LOOP_BRANCH), 2);
    for (int d = 0; d < 4; d++) {
      builder.beginRun(d, d < 2);
      if (d >= 2) {
        builder.addTrue(site, 0, 3);
      } else {
        builder.observe(site);
      }
      builder.endRun();
    }

    Ranking ranking =
        new DeltaLdaModel().rank(builder.build(), DiagnosisOptions.defaults().withMinRuns(1, 1));

    assertThat(ranking.predicates()).isEmpty();
    assertThat(ranking.insufficient())
        .singleElement()
        .asString()
        .contains(
            "no predicate (filter: loop-branch) was sampled true in any of the 2 failing runs");
  }

  @Test
  void badOptionsAreRejectedWithTheValue() {
    assertThatThrownBy(() -> DeltaLdaOptions.defaults().withPriors(0.1, 0))
        .hasMessageContaining("β")
        .hasMessageContaining("was 0.0");
    assertThatThrownBy(() -> DeltaLdaOptions.defaults().withTopics(2, 0))
        .hasMessageContaining("2 + 0");
    assertThatThrownBy(() -> DeltaLdaOptions.defaults().withSweeps(0))
        .hasMessageContaining(">= 1 sweep");
    assertThatThrownBy(() -> DeltaLdaOptions.defaults().withOneSidedSignificance(0))
        .hasMessageContaining("one-sided significance must be in (0, 1]")
        .hasMessageContaining("was 0.0");
  }
}
