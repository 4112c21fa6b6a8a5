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
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class DiagnosisServiceTest {
  private final DiagnosisService service = DiagnosisService.withDefaultModels();

  /** The planted bug's loop placed in ArrayList.indexOf, as the report should name it. */
  private static Map<Long, Site> sitesWithIndexOf(PlantedBug data) {
    Map<Long, Site> sites = new HashMap<>(data.sites());
    sites.put(
        PlantedBug.BUG_SITE,
        TestRuns.site(
            PlantedBug.BUG_SITE,
            SiteKind.LOOP_BRANCH,
            "java.util.ArrayList",
            "indexOf",
            "ArrayList.java",
            312));
    return sites;
  }

  @Test
  void namesTheTopPredictorWithSitePredicateScoresCountsAndHint() {
    PlantedBug data = new PlantedBug(40, 40, 4);
    DiagnosisRequest request = DiagnosisRequest.of("checkout", 0, 10_000);

    DiagnosisReport report = service.diagnose(request, data.runs, sitesWithIndexOf(data));

    assertThat(report.model()).isEqualTo("cbi");
    assertThat(report.filter()).isEqualTo("all");
    assertThat(report.service()).isEqualTo("checkout");
    assertThat(report.failingRuns()).isEqualTo(40);
    assertThat(report.successRuns()).isEqualTo(40);
    assertThat(report.samplingRates()).containsExactly(1e-4);
    assertThat(report.insufficient()).isEmpty();
    ReportedPredictor top = report.predictors().get(0);
    assertThat(top.description())
        .isEqualTo("ArrayList.indexOf (ArrayList.java:312): loop branch \"taken\"");
    assertThat(top.className()).isEqualTo("java.util.ArrayList");
    assertThat(top.methodName()).isEqualTo("indexOf");
    assertThat(top.sourceFile()).isEqualTo("ArrayList.java");
    assertThat(top.line()).isEqualTo(312);
    assertThat(top.kind()).isEqualTo("loop-branch");
    assertThat(top.siteKey()).isEqualTo("0000000000000007");
    assertThat(top.scores()).isInstanceOf(CbiScores.class);
    assertThat(top.counts().numFailing()).isEqualTo(40);
    assertThat(top.fixHint().strategy()).isNotNull();
  }

  @Test
  void usesEachModelsDefaultFilterUnlessTheRequestNamesOne() {
    PlantedBug data = new PlantedBug(30, 30, 4);
    DiagnosisRequest lda =
        DiagnosisRequest.of("checkout", 0, 10_000)
            .withModel("delta-lda")
            .withOptions(
                DiagnosisOptions.defaults()
                    .withDeltaLda(DeltaLdaOptions.defaults().withSweeps(40)));

    DiagnosisReport byDefault = service.diagnose(lda, data.runs, data.sites());
    DiagnosisReport returnsOnly =
        service.diagnose(
            lda.withFilter(PredicateFilter.kinds(SiteKind.RETURN_NUMERIC)),
            data.runs,
            data.sites());

    assertThat(byDefault.filter()).isEqualTo("loop-branch");
    assertThat(byDefault.predictors().get(0).scores()).isInstanceOf(DeltaLdaScores.class);
    assertThat(returnsOnly.filter()).isEqualTo("return-numeric");
    assertThat(returnsOnly.predictors()).isEmpty();
    assertThat(returnsOnly.insufficient()).singleElement().asString().contains("no predicates");
  }

  @Test
  void showsAtMostTopNPredictors() {
    PlantedBug data = new PlantedBug(40, 40, 4);
    DiagnosisRequest request =
        DiagnosisRequest.of("checkout", 0, 10_000)
            .withModel("delta-lda")
            .withTopN(3)
            .withOptions(
                DiagnosisOptions.defaults()
                    .withDeltaLda(DeltaLdaOptions.defaults().withSweeps(40)));

    DiagnosisReport report = service.diagnose(request, data.runs, data.sites());

    assertThat(report.predictors()).hasSize(3);
    assertThat(report.rankedPredicates()).isGreaterThan(3);
    assertThat(report.predictors()).extracting(ReportedPredictor::rank).containsExactly(1, 2, 3);
  }

  @Test
  void reportsWhyThereIsNoAnswer() {
    PlantedBug data = new PlantedBug(0, 30, 4);
    List<StoredRun> runs = new ArrayList<>(data.runs);
    runs.add(TestRuns.run(999, Label.DO_NOT_CARE, List.of(branch(PlantedBug.BUG_SITE, 9, 1))));

    DiagnosisReport report =
        service.diagnose(DiagnosisRequest.of("checkout", 0, 10_000), runs, data.sites());

    assertThat(report.lacksData()).isTrue();
    assertThat(report.predictors()).isEmpty();
    assertThat(report.ignoredRuns()).isEqualTo(1);
    assertThat(report.insufficient()).anyMatch(r -> r.contains("no failing runs"));
  }

  @Test
  void notesMixedSamplingRatesAndContradictoryEntries() {
    PlantedBug data = new PlantedBug(20, 20, 4);
    List<StoredRun> runs = new ArrayList<>(data.runs);
    runs.add(
        TestRuns.run(
            500,
            Label.SUCCESS,
            1e-3,
            List.of(new SiteCounts(PlantedBug.BUG_SITE, 2, new long[] {1, 1, 0}))));

    DiagnosisReport report =
        service.diagnose(DiagnosisRequest.of("checkout", 0, 10_000), runs, data.sites());

    assertThat(report.samplingRates()).containsExactly(1e-4, 1e-3);
    assertThat(report.notes())
        .anyMatch(n -> n.contains("2 different rates"))
        .anyMatch(n -> n.startsWith("1 site entries were skipped"));
  }

  @Test
  void aRunThatObservedNothingAddsNoRate() {
    PlantedBug data = new PlantedBug(20, 20, 4);
    List<StoredRun> runs = new ArrayList<>(data.runs);
    // A violation in a unit that ran between sampling windows: labelled, but with no samples.
    runs.add(TestRuns.run(501, Label.FAILURE, 1e-3, List.of()));

    DiagnosisReport report =
        service.diagnose(DiagnosisRequest.of("checkout", 0, 10_000), runs, data.sites());

    assertThat(report.samplingRates()).containsExactly(1e-4);
    assertThat(report.notes()).noneMatch(n -> n.contains("different rates"));
  }

  @Test
  void describesSitesWithoutMetadataByKey() {
    PlantedBug data = new PlantedBug(30, 30, 4);
    Map<Long, Site> withoutBugSite = new HashMap<>(data.sites());
    withoutBugSite.remove(PlantedBug.BUG_SITE);

    DiagnosisReport report =
        service.diagnose(
            DiagnosisRequest.of("checkout", 0, 10_000), data.runs, withoutBugSite.values());

    ReportedPredictor top = report.predictors().get(0);
    assertThat(top.description()).isEqualTo("site 0000000000000007 (no metadata): predicate 0");
    assertThat(top.kind()).isEqualTo("unknown");
    assertThat(top.fixHint().strategy()).isEqualTo(FixStrategy.INSPECT_SITE);
  }

  @Test
  void rejectsUnknownModelsNamingTheKnownOnes() {
    assertThat(service.modelNames()).containsExactly("cbi", "delta-lda");
    assertThatThrownBy(() -> service.model("lda"))
        .hasMessage("unknown diagnosis model 'lda': use cbi or delta-lda");
    assertThat(service.model(" CBI ")).isInstanceOf(CbiModel.class);
  }

  @Test
  void rejectsBadRequests() {
    assertThatThrownBy(() -> DiagnosisRequest.of("checkout", 10, 5))
        .hasMessageContaining("from=10 > to=5");
    assertThatThrownBy(() -> DiagnosisRequest.of("checkout", 0, 5).withTopN(0))
        .hasMessageContaining("topN must be >= 1");
  }
}
