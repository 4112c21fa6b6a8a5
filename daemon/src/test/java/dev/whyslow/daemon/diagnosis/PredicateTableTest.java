package dev.whyslow.daemon.diagnosis;

import static dev.whyslow.daemon.diagnosis.TestRuns.branch;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.whyslow.protocol.Label;
import dev.whyslow.protocol.Site;
import dev.whyslow.protocol.SiteCounts;
import dev.whyslow.protocol.SiteKind;
import dev.whyslow.storage.StoredRun;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class PredicateTableTest {
  private static final long LOOP = 30;
  private static final long IF = 20;
  private static final long RET = 10;

  private static Map<Long, Site> sites() {
    Map<Long, Site> sites = new HashMap<>();
    sites.put(LOOP, TestRuns.site(LOOP, SiteKind.LOOP_BRANCH));
    sites.put(IF, TestRuns.site(IF, SiteKind.BRANCH));
    sites.put(RET, TestRuns.site(RET, SiteKind.RETURN_NUMERIC));
    return sites;
  }

  private static SiteCounts returns(long key, long observed, long lt, long le, long gt, long ge) {
    return new SiteCounts(key, observed, new long[] {lt, le, gt, ge, 0, observed});
  }

  private static List<StoredRun> runs() {
    return List.of(
        TestRuns.run(1, Label.FAILURE, List.of(branch(LOOP, 5, 1), branch(IF, 0, 2))),
        TestRuns.run(2, Label.SUCCESS, List.of(branch(LOOP, 1, 1), returns(RET, 2, 0, 0, 2, 2))),
        TestRuns.run(3, Label.DO_NOT_CARE, List.of(branch(LOOP, 50, 1))),
        TestRuns.run(
            4, Label.FAILURE, List.of(branch(IF, 1, 0), new SiteCounts(RET, 0, new long[6]))));
  }

  @Test
  void keepsLabelledRunsAndCountsDoNotCareOnes() {
    PredicateTable table = PredicateTable.from(runs(), sites(), PredicateFilter.all());

    assertThat(table.runCount()).isEqualTo(3);
    assertThat(table.failingRunCount()).isEqualTo(2);
    assertThat(table.successRunCount()).isEqualTo(1);
    assertThat(table.ignoredRunCount()).isEqualTo(1);
    assertThat(table.runId(0)).isEqualTo(1);
    assertThat(table.isFailing(1)).isFalse();
  }

  @Test
  void mapsEachSitesPredicatesToContiguousIdsInSiteKeyOrder() {
    PredicateTable table = PredicateTable.from(runs(), sites(), PredicateFilter.all());

    // RET (6 predicates) < IF (2) < LOOP (2) by key.
    assertThat(table.siteCount()).isEqualTo(3);
    assertThat(table.predicateCount()).isEqualTo(10);
    assertThat(table.siteKey(0)).isEqualTo(RET);
    assertThat(table.siteKey(6)).isEqualTo(IF);
    assertThat(table.predicateIndex(7)).isEqualTo(SiteKind.NOT_TAKEN);
    assertThat(table.findPredicate(LOOP, SiteKind.TAKEN)).hasValue(8);
    assertThat(table.findPredicate(LOOP, 2)).isEmpty();
    assertThat(table.site(8)).map(Site::kind).hasValue(SiteKind.LOOP_BRANCH);
  }

  @Test
  void doesNotDependOnTheOrderRunsArriveIn() {
    List<StoredRun> reversed = new ArrayList<>(runs());
    Collections.reverse(reversed);

    PredicateTable forward = PredicateTable.from(runs(), sites(), PredicateFilter.all());
    PredicateTable backward = PredicateTable.from(reversed, sites(), PredicateFilter.all());

    for (int p = 0; p < forward.predicateCount(); p++) {
      assertThat(backward.siteKey(p)).isEqualTo(forward.siteKey(p));
      assertThat(backward.counts(p)).isEqualTo(forward.counts(p));
    }
  }

  @Test
  void countsRunsObservedAndTrueAndTokens() {
    PredicateTable table = PredicateTable.from(runs(), sites(), PredicateFilter.all());
    int loopTaken = table.findPredicate(LOOP, SiteKind.TAKEN).getAsInt();
    int ifTaken = table.findPredicate(IF, SiteKind.TAKEN).getAsInt();
    int retGt = table.findPredicate(RET, SiteKind.GT).getAsInt();

    assertThat(table.counts(loopTaken)).isEqualTo(new PredicateCounts(1, 1, 1, 1, 2, 1));
    assertThat(table.counts(ifTaken)).isEqualTo(new PredicateCounts(1, 0, 2, 0, 2, 1));
    // Run 4 reports RET with observed = 0: not observed.
    assertThat(table.counts(retGt)).isEqualTo(new PredicateCounts(0, 1, 0, 1, 2, 1));
    assertThat(table.failingTokens(loopTaken)).isEqualTo(5);
    assertThat(table.successTokens(loopTaken)).isEqualTo(1);
    assertThat(table.branchTokens(loopTaken)).hasValue(new BranchTokens(5, 1, 1, 1));
    assertThat(table.branchTokens(retGt)).isEmpty();
  }

  @Test
  void filtersSitesByKind() {
    PredicateTable loops = PredicateTable.from(runs(), sites(), PredicateFilter.loopBranches());
    PredicateTable returns =
        PredicateTable.from(runs(), sites(), PredicateFilter.kinds(SiteKind.RETURN_NUMERIC));

    assertThat(loops.predicateCount()).isEqualTo(2);
    assertThat(loops.siteKey(0)).isEqualTo(LOOP);
    assertThat(returns.predicateCount()).isEqualTo(6);
    assertThat(returns.runCount()).isEqualTo(3);
  }

  @Test
  void keepsSitesWithoutMetadataOnlyWhenTheFilterTakesEverything() {
    Map<Long, Site> onlyLoop = Map.of(LOOP, TestRuns.site(LOOP, SiteKind.LOOP_BRANCH));

    PredicateTable all = PredicateTable.from(runs(), onlyLoop, PredicateFilter.all());
    PredicateTable branches =
        PredicateTable.from(
            runs(), onlyLoop, PredicateFilter.kinds(SiteKind.BRANCH, SiteKind.LOOP_BRANCH));

    assertThat(all.siteCount()).isEqualTo(3);
    assertThat(all.site(all.findPredicate(IF, 0).getAsInt())).isEmpty();
    assertThat(all.findPredicate(RET, 5)).isPresent();
    assertThat(branches.siteCount()).isEqualTo(1);
  }

  @Test
  void mergesASiteReportedTwiceInOneRun() {
    List<StoredRun> runs =
        List.of(TestRuns.run(1, Label.FAILURE, List.of(branch(LOOP, 2, 1), branch(LOOP, 3, 0))));

    PredicateTable table = PredicateTable.from(runs, sites(), PredicateFilter.all());

    int taken = table.findPredicate(LOOP, SiteKind.TAKEN).getAsInt();
    assertThat(table.counts(taken)).isEqualTo(new PredicateCounts(1, 0, 1, 0, 1, 0));
    assertThat(table.failingTokens(taken)).isEqualTo(5);
    assertThat(table.observedSite()).hasSize(1);
  }

  @Test
  void skipsAndCountsEntriesThatContradictTheSiteKind() {
    List<StoredRun> runs =
        List.of(
            TestRuns.run(1, Label.FAILURE, List.of(new SiteCounts(LOOP, 3, new long[] {1, 1, 1}))));

    PredicateTable table = PredicateTable.from(runs, sites(), PredicateFilter.all());

    assertThat(table.skippedEntryCount()).isEqualTo(1);
    assertThat(table.observedSite()).isEmpty();
  }

  @Test
  void remembersTheDistinctSamplingRates() {
    List<StoredRun> runs =
        List.of(
            TestRuns.run(1, Label.FAILURE, 1e-3, List.of(branch(LOOP, 1, 0))),
            TestRuns.run(2, Label.SUCCESS, 1e-4, List.of(branch(LOOP, 1, 0))),
            TestRuns.run(3, Label.SUCCESS, 1e-4, List.of(branch(LOOP, 1, 0))));

    PredicateTable table = PredicateTable.from(runs, sites(), PredicateFilter.all());

    assertThat(table.samplingRates()).containsExactly(1e-4, 1e-3);
  }

  @Test
  void storesOnlyWhatRunsSaw() {
    PredicateTableBuilder builder = PredicateTable.builder(PredicateFilter.all());
    for (int s = 0; s < 10_000; s++) {
      builder.addSite(s, null, 2);
    }
    for (int r = 0; r < 1_000; r++) {
      builder.beginRun(r, r % 2 == 0);
      for (int k = 0; k < 3; k++) {
        builder.addTrue((r * 7 + k * 1_013) % 10_000, k % 2, 1 + k);
      }
      builder.endRun();
    }

    PredicateTable table = builder.build();

    assertThat(table.predicateCount()).isEqualTo(20_000);
    assertThat(table.observedSite()).hasSize(3_000);
    assertThat(table.truePredicate()).hasSize(3_000);
  }

  @Test
  void builderMisuseIsExplained() {
    PredicateTableBuilder builder = PredicateTable.builder(PredicateFilter.all());
    int site = builder.addSite(1, null, 2);

    assertThatThrownBy(() -> builder.observe(site)).hasMessageContaining("call beginRun");
    builder.beginRun(1, true);
    assertThatThrownBy(() -> builder.addTrue(site, 2, 1))
        .hasMessageContaining("predicate index 2 outside [0, 2)");
    assertThatThrownBy(() -> builder.addTrue(5, 0, 1)).hasMessageContaining("add the site first");
    assertThatThrownBy(builder::build).hasMessageContaining("endRun");
    builder.endRun();
    builder.build();
    assertThatThrownBy(() -> builder.beginRun(2, false)).hasMessageContaining("already built");
    assertThatThrownBy(builder::build).hasMessageContaining("already called");
  }

  @Test
  void filtersParseFromTheirSpelling() {
    assertThat(PredicateFilter.parse("all")).isEqualTo(PredicateFilter.all());
    assertThat(PredicateFilter.parse("loop-branch")).isEqualTo(PredicateFilter.loopBranches());
    assertThat(PredicateFilter.parse(" Branch, RETURN_NUMERIC ").describe())
        .isEqualTo("branch,return-numeric");
    assertThatThrownBy(() -> PredicateFilter.parse("loops"))
        .hasMessageContaining("unknown predicate filter 'loops'")
        .hasMessageContaining("loop-branch");
  }
}
