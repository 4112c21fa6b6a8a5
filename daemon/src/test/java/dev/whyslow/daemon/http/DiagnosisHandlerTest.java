package dev.whyslow.daemon.http;

import static dev.whyslow.daemon.http.Requests.get;
import static dev.whyslow.daemon.http.Requests.ok;
import static dev.whyslow.daemon.http.Requests.refused;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.whyslow.daemon.TestData;
import dev.whyslow.daemon.diagnosis.DiagnosisService;
import dev.whyslow.protocol.Label;
import dev.whyslow.protocol.Run;
import dev.whyslow.protocol.RunKind;
import dev.whyslow.protocol.SiteCounts;
import dev.whyslow.protocol.SiteKeys;
import dev.whyslow.storage.InMemoryStore;
import dev.whyslow.storage.RunOrigin;
import io.netty.handler.codec.http.HttpResponseStatus;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class DiagnosisHandlerTest {
  private static final long T0 = 1_718_000_000_000L;
  private static final RunOrigin ORIGIN = new RunOrigin(TestData.SERVICE, "host-a", "1.0");

  private final InMemoryStore store = new InMemoryStore();
  private final HttpRouter router =
      new HttpRouter().register(new DiagnosisHandler(store, DiagnosisService.withDefaultModels()));

  @AfterEach
  void close() {
    store.close();
  }

  /** Failing runs keep iterating the loop (its branch is taken); successful runs leave at once. */
  private void store(int perSide) {
    store.putSites(TestData.SERVICE, TestData.SITES.sites());
    List<Run> runs = new ArrayList<>();
    for (int i = 0; i < perSide; i++) {
      runs.add(run(2 * i, Label.FAILURE, new long[] {40, 1}));
      runs.add(run(2 * i + 1, Label.SUCCESS, new long[] {0, 1}));
    }
    store.putRuns(ORIGIN, runs);
  }

  private static Run run(long sequence, Label label, long[] loopCounts) {
    return new Run(
        sequence + 1,
        RunKind.PROCESS,
        T0 + sequence,
        1_000_000,
        label,
        "",
        1.0,
        List.of(
            new SiteCounts(TestData.LOOP.key(), loopCounts[0] + loopCounts[1], loopCounts),
            new SiteCounts(TestData.RETURN.key(), 3, new long[] {0, 0, 3, 3, 0, 3})));
  }

  @Test
  void ranksThePredicateThatSeparatesFailingRunsFirst() {
    store(12);
    for (String model : List.of("cbi", "delta-lda")) {
      JsonNode report = ok(router, get("/api/v1/diagnosis?service=checkout&model=" + model));
      assertThat(report.get("model").asText()).isEqualTo(model);
      assertThat(report.get("failingRuns").asInt()).isEqualTo(12);
      assertThat(report.get("successRuns").asInt()).isEqualTo(12);
      assertThat(report.get("insufficient")).isEmpty();
      JsonNode top = report.get("predictors").get(0);
      assertThat(top.get("siteKey").asText()).isEqualTo(SiteKeys.format(TestData.LOOP.key()));
      assertThat(top.get("predicate").asText()).isEqualTo("taken");
      assertThat(top.get("description").asText()).contains("Cart.total (Cart.java:42)");
      assertThat(top.get("counts").get("failingTrue").asInt()).isEqualTo(12);
      assertThat(top.get("counts").get("successTrue").asInt()).isZero();
    }
  }

  @Test
  void saysWhatIsMissingWhenThereAreTooFewRuns() {
    store(3);
    JsonNode report = ok(router, get("/api/v1/diagnosis?service=checkout"));
    assertThat(report.get("predictors")).as(report.toString()).isEmpty();
    assertThat(report.get("insufficient")).as(report.toString()).isNotEmpty();
    assertThat(report.get("insufficient").get(0).asText()).contains("failing runs");
  }

  @Test
  void refusesBadParametersWithTheirNameAndValue() {
    store(3);
    assertThat(refused(router, get("/api/v1/diagnosis")).getMessage()).contains("service");
    ApiException model = refused(router, get("/api/v1/diagnosis?service=checkout&model=svm"));
    assertThat(model.status()).isEqualTo(HttpResponseStatus.BAD_REQUEST);
    assertThat(model.getMessage()).contains("svm").contains("cbi").contains("delta-lda");
    assertThat(refused(router, get("/api/v1/diagnosis?service=checkout&top=0")).getMessage())
        .contains("top");
    assertThat(
            refused(router, get("/api/v1/diagnosis?service=checkout&predicates=loops"))
                .getMessage())
        .contains("loops");
    assertThat(refused(router, get("/api/v1/diagnosis?service=checkout&label=failure")).status())
        .isEqualTo(HttpResponseStatus.BAD_REQUEST);
    assertThat(refused(router, get("/api/v1/diagnosis?service=checkout&confidence=2")).getMessage())
        .contains("confidence");
    assertThat(
            refused(router, get("/api/v1/diagnosis?service=checkout&model=delta-lda&oneSided=0"))
                .getMessage())
        .contains("oneSided")
        .contains("(0, 1]");
  }

  /** A loop sampled in two failing runs only: left out by default, kept with {@code oneSided=1}. */
  @Test
  void oneSidedDecidesWhetherAPredicateWithoutBaselineIsRanked() {
    store.putSites(TestData.SERVICE, TestData.SITES.sites());
    List<Run> runs = new ArrayList<>();
    for (int i = 0; i < 12; i++) {
      long[] loop = i < 2 ? new long[] {40, 1} : null;
      runs.add(sparseRun(2 * i, Label.FAILURE, loop));
      runs.add(sparseRun(2 * i + 1, Label.SUCCESS, null));
    }
    store.putRuns(ORIGIN, runs);
    String url = "/api/v1/diagnosis?service=checkout&model=delta-lda&predicates=all";

    JsonNode byDefault = ok(router, get(url));
    JsonNode keepAll = ok(router, get(url + "&oneSided=1"));

    assertThat(byDefault.get("predictors").findValuesAsText("siteKey"))
        .doesNotContain(SiteKeys.format(TestData.LOOP.key()));
    // In the notes, or among the reasons when nothing else could be ranked.
    assertThat(byDefault.toString()).contains("left out: Cart.total (Cart.java:42) \\\"taken\\\"");
    assertThat(keepAll.get("predictors").get(0).get("siteKey").asText())
        .isEqualTo(SiteKeys.format(TestData.LOOP.key()));
  }

  /** A run that always returns, and runs the loop only where {@code loopCounts} is given. */
  private static Run sparseRun(long sequence, Label label, long[] loopCounts) {
    List<SiteCounts> sites = new ArrayList<>();
    sites.add(new SiteCounts(TestData.RETURN.key(), 3, new long[] {0, 0, 3, 3, 0, 3}));
    if (loopCounts != null) {
      sites.add(new SiteCounts(TestData.LOOP.key(), loopCounts[0] + loopCounts[1], loopCounts));
    }
    return new Run(sequence + 1, RunKind.PROCESS, T0 + sequence, 1_000_000, label, "", 1.0, sites);
  }
}
