package dev.whyslow.daemon.http;

import static dev.whyslow.daemon.http.Requests.get;
import static dev.whyslow.daemon.http.Requests.ok;
import static dev.whyslow.daemon.http.Requests.post;
import static dev.whyslow.daemon.http.Requests.refused;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.whyslow.daemon.TestData;
import dev.whyslow.protocol.Label;
import dev.whyslow.storage.InMemoryStore;
import dev.whyslow.storage.RunIds;
import dev.whyslow.storage.RunOrigin;
import dev.whyslow.storage.RunQuery;
import dev.whyslow.storage.StoredRun;
import io.netty.handler.codec.http.HttpResponseStatus;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class RunsAndLabelsHandlerTest {
  private static final long T0 = 1_718_000_000_000L; // 2024-06-10T06:13:20Z
  private static final RunOrigin A1 = new RunOrigin("checkout", "host-a", "1.0");
  private static final RunOrigin B2 = new RunOrigin("checkout", "host-b", "2.0");
  private static final RunOrigin SEARCH = new RunOrigin("search", "host-a", "7");

  private final InMemoryStore store = new InMemoryStore();
  private final HttpRouter router =
      new HttpRouter().register(new RunsHandler(store)).register(new LabelsHandler(store));
  private final List<StoredRun> stored = new ArrayList<>();

  @BeforeEach
  void fill() {
    store.putSites("checkout", TestData.SITES.sites());
    stored.addAll(store.putRuns(A1, List.of(TestData.run(1, T0), TestData.run(2, T0 + 1000))));
    stored.addAll(
        store.putRuns(B2, List.of(TestData.run(1, T0 + 2000), TestData.run(2, T0 + 3000))));
    stored.addAll(store.putRuns(SEARCH, List.of(TestData.run(1, T0 + 500))));
  }

  @AfterEach
  void close() {
    store.close();
  }

  private List<String> ids(JsonNode runs) {
    List<String> ids = new ArrayList<>();
    runs.get("runs").forEach(r -> ids.add(r.get("id").asText()));
    return ids;
  }

  private String id(int index) {
    return RunIds.format(stored.get(index).runId());
  }

  @Test
  void listsRunsOldestFirstWithTheirOrigin() {
    JsonNode body = ok(router, get("/api/v1/runs?service=checkout"));
    assertThat(body.get("count").asInt()).isEqualTo(4);
    assertThat(body.get("limit").asInt()).isEqualTo(RunQuery.DEFAULT_LIMIT);
    JsonNode first = body.get("runs").get(0);
    assertThat(first.get("id").asText()).isEqualTo(id(0)).hasSize(16);
    assertThat(first.get("service").asText()).isEqualTo("checkout");
    assertThat(first.get("instance").asText()).isEqualTo("host-a");
    assertThat(first.get("version").asText()).isEqualTo("1.0");
    assertThat(first.get("kind").asText()).isEqualTo("unit");
    assertThat(first.get("start").asText()).isEqualTo("2024-06-10T06:13:20Z");
    assertThat(first.get("durationNanos").asLong()).isEqualTo(2_000_001);
    assertThat(first.get("label").asText()).isEqualTo("do-not-care");
    assertThat(first.get("unitType").asText()).isEqualTo("GET /cart");
    assertThat(first.get("samplingRate").asDouble()).isEqualTo(1e-4);
    assertThat(first.has("sites")).isFalse();
  }

  @Test
  void filtersByWindowInstanceVersionAndLimit() {
    assertThat(
            ids(ok(router, get("/api/v1/runs?from=" + (T0 + 1000) + "&to=2024-06-10T06:13:23Z"))))
        .containsExactly(id(1), id(2));
    assertThat(ids(ok(router, get("/api/v1/runs?service=checkout&instance=host-b"))))
        .containsExactly(id(2), id(3));
    assertThat(ids(ok(router, get("/api/v1/runs?version=1.0")))).containsExactly(id(0), id(1));
    assertThat(ids(ok(router, get("/api/v1/runs?limit=2")))).containsExactly(id(0), id(4));
    assertThat(ids(ok(router, get("/api/v1/runs?kind=process")))).isEmpty();
    assertThat(ids(ok(router, get("/api/v1/runs?label=failure")))).isEmpty();
  }

  @Test
  void detailAddsPerSiteCounts() {
    JsonNode run = ok(router, get("/api/v1/runs?service=search&detail=true")).get("runs").get(0);
    JsonNode site = run.get("sites").get(0);
    assertThat(site.get("site").asText()).hasSize(16);
    assertThat(site.get("observed").asLong()).isPositive();
    assertThat(site.get("trueCounts").isArray()).isTrue();
  }

  @Test
  void badParametersAreNamedWithTheirValue() {
    ApiException e = refused(router, get("/api/v1/runs?from=yesterday"));
    assertThat(e.status()).isEqualTo(HttpResponseStatus.BAD_REQUEST);
    assertThat(e.getMessage()).contains("'from'").contains("'yesterday'").contains("ISO-8601");
    assertThat(refused(router, get("/api/v1/runs?limit=0")).getMessage()).contains("'limit'");
    assertThat(refused(router, get("/api/v1/runs?kind=batch")).getMessage())
        .contains("unit or process");
    assertThat(refused(router, get("/api/v1/runs?label=bad")).getMessage()).contains("'bad'");
    assertThat(refused(router, get("/api/v1/runs?from=10&to=5")).getMessage()).contains("'to'");
    assertThat(refused(router, get("/api/v1/runs?servce=checkout")).getMessage())
        .contains("unknown query parameter 'servce'");
  }

  @Test
  void oneRunComesWithItsCounts() {
    JsonNode run = ok(router, get("/api/v1/runs/" + id(3)));
    assertThat(run.get("instance").asText()).isEqualTo("host-b");
    assertThat(run.get("sites")).hasSize(2);
  }

  @Test
  void unknownRunIsNotFoundAndGarbageIdIsBad() {
    ApiException missing = refused(router, get("/api/v1/runs/00000000000000ff"));
    assertThat(missing.status()).isEqualTo(HttpResponseStatus.NOT_FOUND);
    assertThat(missing.getMessage()).contains("00000000000000ff");
    assertThat(refused(router, get("/api/v1/runs/xyz")).status())
        .isEqualTo(HttpResponseStatus.BAD_REQUEST);
  }

  @Test
  void labelsRunsById() {
    JsonNode body =
        ok(
            router,
            post(
                "/api/v1/labels",
                "{\"label\":\"failure\",\"runIds\":[\"" + id(0) + "\",\"" + id(3) + "\"]}"));
    assertThat(body.get("relabelled").asLong()).isEqualTo(2);
    assertThat(ids(ok(router, get("/api/v1/runs?label=failure")))).containsExactly(id(0), id(3));
  }

  @Test
  void labelsRunsByTimeRangeInstanceAndVersion() {
    JsonNode byVersion =
        ok(
            router,
            post(
                "/api/v1/labels",
                "{\"label\":\"success\",\"service\":\"checkout\",\"version\":\"2.0\"}"));
    assertThat(byVersion.get("relabelled").asLong()).isEqualTo(2);

    JsonNode byRange =
        ok(
            router,
            post(
                "/api/v1/labels",
                "{\"label\":\"failure\",\"service\":\"checkout\",\"instance\":\"host-a\","
                    + "\"from\":\"2024-06-10T06:13:21Z\",\"to\":"
                    + (T0 + 5000)
                    + "}"));
    assertThat(byRange.get("relabelled").asLong()).isEqualTo(1);

    assertThat(store.run(stored.get(0).runId()).orElseThrow().label()).isEqualTo(Label.DO_NOT_CARE);
    assertThat(store.run(stored.get(1).runId()).orElseThrow().label()).isEqualTo(Label.FAILURE);
    assertThat(store.run(stored.get(2).runId()).orElseThrow().label()).isEqualTo(Label.SUCCESS);
    assertThat(store.run(stored.get(4).runId()).orElseThrow().label()).isEqualTo(Label.DO_NOT_CARE);
  }

  @Test
  void malformedLabelRequestsChangeNothing() {
    List<String> bodies =
        List.of(
            "{\"label\":\"failure\",\"runIds\":[\"" + id(0) + "\"",
            "[1,2]",
            "",
            "{\"runIds\":[\"" + id(0) + "\"]}",
            "{\"label\":\"broken\",\"runIds\":[\"" + id(0) + "\"]}",
            "{\"label\":\"failure\",\"runIds\":[\"" + id(0) + "\",\"nothex\"]}",
            "{\"label\":\"failure\",\"runIds\":[\"" + id(0) + "\"],\"service\":\"checkout\"}",
            "{\"label\":\"failure\",\"servce\":\"checkout\"}",
            "{\"label\":\"failure\"}",
            "{\"label\":\"failure\",\"service\":\"checkout\",\"from\":\"noon\"}",
            "{\"label\":\"failure\",\"service\":\"checkout\",\"from\":5,\"to\":5}",
            "{\"label\":\"failure\",\"service\":17}");
    for (String body : bodies) {
      ApiException e = refused(router, post("/api/v1/labels", body));
      assertThat(e.status()).as(body).isEqualTo(HttpResponseStatus.BAD_REQUEST);
      assertThat(e.getMessage()).as(body).isNotBlank();
    }
    assertThat(store.runs(RunQuery.all())).allMatch(r -> r.label() == Label.DO_NOT_CARE);
  }
}
