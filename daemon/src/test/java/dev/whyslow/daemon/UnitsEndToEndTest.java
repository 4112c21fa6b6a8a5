package dev.whyslow.daemon;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.whyslow.daemon.cli.WhyslowCli;
import dev.whyslow.daemon.config.DaemonConfig;
import dev.whyslow.protocol.HelloOk;
import dev.whyslow.protocol.Label;
import dev.whyslow.protocol.Message;
import dev.whyslow.protocol.Run;
import dev.whyslow.protocol.RunBatch;
import dev.whyslow.protocol.RunKind;
import dev.whyslow.protocol.SetThresholds;
import dev.whyslow.protocol.SiteCounts;
import dev.whyslow.protocol.Threshold;
import dev.whyslow.protocol.UnitHistogram;
import dev.whyslow.protocol.UnitStats;
import dev.whyslow.protocol.UnitTypeBatch;
import dev.whyslow.protocol.UnitTypeInfo;
import dev.whyslow.protocol.Violation;
import dev.whyslow.protocol.ViolationBatch;
import dev.whyslow.protocol.ViolationCause;
import dev.whyslow.storage.InMemoryStore;
import dev.whyslow.storage.RunQuery;
import dev.whyslow.storage.UnitStatsQuery;
import dev.whyslow.storage.ViolationQuery;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A real daemon and plain-socket agents: unit statistics become a threshold pushed back to the
 * agents, violations come back through the API, the CLI and {@code /metrics}, and the diagnosis of
 * a unit type reads only that type's runs.
 */
class UnitsEndToEndTest {
  static final long T0 = 1_718_000_000_000L;
  static final long MS = 1_000_000L;

  private final InMemoryStore store = new InMemoryStore();
  private RunningDaemon daemon;
  private TestHttp http;

  @BeforeEach
  void start() {
    DaemonConfig config =
        DaemonConfig.defaults()
            .with(
                Map.of(
                    "agent.bind", "127.0.0.1:0",
                    "http.bind", "127.0.0.1:0",
                    "thresholds.min.count", "150"));
    daemon = Whyslowd.builder(config).store(store).clock(TestData.clockAt(T0)).start();
    http = new TestHttp(daemon.httpUri());
  }

  @AfterEach
  void stop() {
    daemon.close();
  }

  private TestAgent handshaken(String instance) throws Exception {
    TestAgent agent = new TestAgent(daemon.agentAddress());
    agent.send(TestData.hello(instance, "1.0", ""));
    assertThat(agent.read()).isInstanceOf(HelloOk.class);
    return agent;
  }

  /** 100 units of 10 ms and 100 of 20 ms: mean 15 ms, sigma 5 ms, threshold 15 + 4 * 5 = 35 ms. */
  static UnitHistogram clearDistribution(String type) {
    long[] buckets = new long[UnitHistogram.BUCKETS];
    buckets[UnitHistogram.bucketOf(10 * MS)] += 100;
    buckets[UnitHistogram.bucketOf(20 * MS)] += 100;
    double squares = 100.0 * (10 * MS) * (10 * MS) + 100.0 * (20 * MS) * (20 * MS);
    return new UnitHistogram(type, 200, 3000 * MS, squares, 10 * MS, 20 * MS, 1, buckets);
  }

  private Threshold sendStatsAndRecompute(TestAgent agent) throws Exception {
    agent.send(new UnitStats(T0 - 60_000, 10_000, List.of(clearDistribution("search"))));
    Await.until(
        "unit stats stored",
        () -> !store.unitStats(UnitStatsQuery.of("checkout", 0, Long.MAX_VALUE)).isEmpty());
    assertThat(daemon.thresholds().recompute()).containsExactly("checkout");
    Message pushed = agent.read();
    assertThat(pushed).isInstanceOf(SetThresholds.class);
    return ((SetThresholds) pushed).thresholds().get(0);
  }

  @Test
  void thresholdFromUnitStatsIsPushedToTheAgentAndToAgentsThatConnectLater() throws Exception {
    try (TestAgent agent = handshaken("host-a")) {
      Threshold threshold = sendStatsAndRecompute(agent);

      assertThat(threshold.unitType()).isEqualTo("search");
      assertThat(threshold.thresholdNanos()).isBetween(35 * MS - 1, 35 * MS + 1);
      assertThat(threshold.basedOnCount()).isEqualTo(200);
      // Unchanged data: nothing new is stored or pushed.
      assertThat(daemon.thresholds().recompute()).isEmpty();

      try (TestAgent later = new TestAgent(daemon.agentAddress())) {
        later.send(TestData.hello("host-b", "1.0", ""));
        assertThat(later.read()).isInstanceOf(HelloOk.class);
        assertThat(later.read()).isEqualTo(new SetThresholds(List.of(threshold)));
      }
      assertThat(store.thresholds("checkout")).hasSize(1);
    }
  }

  @Test
  void unitsAndThresholdsAreServedByApiAndCli() throws Exception {
    try (TestAgent agent = handshaken("host-a")) {
      agent.send(
          new UnitTypeBatch(
              List.of(
                  new UnitTypeInfo(
                      "search", "com.acme.Router.handle", List.of("a > b"), List.of("b")))));
      sendStatsAndRecompute(agent);
    }
    JsonNode units = http.get("/api/v1/units?service=checkout").json();
    JsonNode search = units.get("units").get(0);
    assertThat(search.get("unitType").asText()).isEqualTo("search");
    assertThat(search.get("count").asLong()).isEqualTo(200);
    assertThat(search.get("meanNanos").asDouble()).isEqualTo(15.0 * MS);
    assertThat(search.get("p99Nanos").asDouble()).isBetween(10.0 * MS, 20.0 * MS);
    assertThat(search.get("threshold").get("basedOnCount").asLong()).isEqualTo(200);
    assertThat(search.get("info").get("entryPoint").asText()).isEqualTo("com.acme.Router.handle");
    assertThat(http.get("/api/v1/thresholds?service=checkout").json().get("thresholds")).hasSize(1);
    assertThat(http.get("/api/v1/units").status()).isEqualTo(400);
    assertThat(http.get("/api/v1/units").body()).contains("'service'");

    assertThat(cli("units", "checkout")).contains("search").contains("35.000 ms");
    assertThat(cli("thresholds", "checkout")).contains("mean-sigma").contains("35.000 ms");
  }

  @Test
  void violationsRoundTripThroughApiCliAndMetrics() throws Exception {
    Violation violation =
        new Violation(
            T0 - 2000,
            T0 - 1000,
            "search",
            900 * MS,
            35 * MS,
            ViolationCause.GUARD,
            "http-worker-7",
            List.of(
                "com.acme.Catalog.scan(Catalog.java:42)", "com.acme.Router.handle(Router.java:9)"),
            12);
    try (TestAgent agent = handshaken("host-a");
        TestAgent other = handshaken("host-b")) {
      agent.send(new ViolationBatch(List.of(violation)));
      sendStatsAndRecompute(agent);
      assertThat(other.read()).isInstanceOf(SetThresholds.class);
      Await.until(
          "violation stored",
          () -> !store.violations(ViolationQuery.forService("checkout")).isEmpty());

      String metrics = http.get("/metrics").body();
      String labels = "service=\"checkout\",unit_type=\"search\"";
      assertThat(metrics)
          .contains("whyslow_unit_duration_seconds_bucket{" + labels + ",le=\"0.01\",} 100.0")
          .contains("whyslow_unit_duration_seconds_bucket{" + labels + ",le=\"0.025\",} 200.0")
          .contains("whyslow_unit_duration_seconds_bucket{" + labels + ",le=\"+Inf\",} 200.0")
          .contains("whyslow_unit_duration_seconds_count{" + labels + ",} 200.0")
          .contains("whyslow_unit_duration_seconds_sum{" + labels + ",} 3.0")
          .contains("whyslow_unit_threshold_seconds{" + labels + ",} 0.035")
          .contains("whyslow_unit_violations_total{" + labels + ",} 1.0")
          .contains("whyslow_service_agents_connected{service=\"checkout\",} 2.0");
    }
    Await.until("agents gone", () -> daemon.agents().size() == 0);
    assertThat(http.get("/metrics").body())
        .contains("whyslow_service_agents_connected{service=\"checkout\",} 0.0");

    JsonNode list = http.get("/api/v1/violations?service=checkout&unitType=search").json();
    assertThat(list.get("count").asInt()).isEqualTo(1);
    JsonNode listed = list.get("violations").get(0);
    assertThat(listed.has("stack")).isFalse();
    assertThat(listed.get("elapsedNanos").asLong()).isEqualTo(900 * MS);
    String id = listed.get("id").asText();
    JsonNode one = http.get("/api/v1/violations/" + id).json();
    assertThat(one.get("stack").get(0).asText())
        .isEqualTo("com.acme.Catalog.scan(Catalog.java:42)");
    assertThat(one.get("cause").asText()).isEqualTo("guard");

    assertThat(http.get("/api/v1/violations?service=checkout&limit=0").body()).contains("'limit'");
    assertThat(http.get("/api/v1/violations?service=checkout&limit=0").status()).isEqualTo(400);
    assertThat(http.get("/api/v1/violations?service=checkout&from=yesterday").body())
        .contains("'from'");
    assertThat(http.get("/api/v1/violations/nothex").status()).isEqualTo(400);
    assertThat(http.get("/api/v1/violations/0000000000000001").status()).isEqualTo(404);

    assertThat(cli("violations", "checkout", "--unit-type", "search"))
        .contains(id)
        .contains("900.000 ms")
        .contains("http-worker-7");
    assertThat(cli("violation", id)).contains("at com.acme.Router.handle(Router.java:9)");
    assertThat(cli("--json", "violations", "checkout")).contains("\"id\":\"" + id + "\"");
  }

  @Test
  void diagnosisOfAUnitTypeUsesOnlyThatTypesUnitRunsAndSaysWhenItCannot() throws Exception {
    try (TestAgent agent = handshaken("host-a")) {
      agent.send(TestData.SITES);
      sendStatsAndRecompute(agent);
      agent.send(new UnitStats(T0 - 50_000, 10_000, List.of(clearDistribution("checkout-page"))));
      Await.until(
          "second unit stats stored",
          () -> store.unitStats(UnitStatsQuery.of("checkout", 0, Long.MAX_VALUE)).size() == 2);
      daemon.thresholds().recompute();
      assertThat(((SetThresholds) agent.read()).thresholds()).hasSize(2);
      List<Run> runs = new ArrayList<>();
      for (int i = 0; i < 60; i++) {
        boolean slow = i % 2 == 0;
        runs.add(unitRun(i + 1, "search", slow ? Label.FAILURE : Label.SUCCESS, slow));
        runs.add(unitRun(1000 + i, "cart", Label.DO_NOT_CARE, false));
      }
      runs.add(unitRun(5000, "checkout-page", Label.SUCCESS, false));
      agent.send(new RunBatch(runs));
      Await.until("runs stored", () -> store.runs(RunQuery.all()).size() == 121);
    }

    String window = "&from=" + (T0 - 600_000) + "&to=" + (T0 + 1);
    JsonNode search =
        http.get("/api/v1/diagnosis?service=checkout&unitType=search" + window).json();
    assertThat(search.get("failingRuns").asInt()).isEqualTo(30);
    assertThat(search.get("successRuns").asInt()).isEqualTo(30);
    assertThat(search.get("ignoredRuns").asInt()).isZero();
    assertThat(search.get("insufficient")).isEmpty();
    assertThat(search.get("predictors").get(0).get("siteKey").asText())
        .isEqualTo(dev.whyslow.protocol.SiteKeys.format(TestData.LOOP.key()));

    JsonNode cart = http.get("/api/v1/diagnosis?service=checkout&unitType=cart" + window).json();
    assertThat(cart.get("insufficient").get(0).asText())
        .contains("'cart' has no threshold yet")
        .contains("150 units");
    JsonNode page =
        http.get("/api/v1/diagnosis?service=checkout&unitType=checkout-page" + window).json();
    assertThat(page.get("insufficient").get(0).asText()).contains("no unit of type");
    JsonNode none = http.get("/api/v1/diagnosis?service=checkout&unitType=nope" + window).json();
    assertThat(none.get("insufficient").get(0).asText()).contains("no unit runs of type 'nope'");

    assertThat(cli("diagnose", "checkout", "--unit-type", "cart", "--from", "" + (T0 - 600_000)))
        .contains("not enough data: unit type 'cart' has no threshold yet");
  }

  /** A unit run whose loop ran long (the planted cause) when {@code slow}. */
  private static Run unitRun(long sequence, String type, Label label, boolean slow) {
    return new Run(
        sequence,
        RunKind.UNIT,
        T0 - 60_000 + sequence,
        slow ? 50 * MS : 10 * MS,
        label,
        type,
        1.0,
        List.of(
            new SiteCounts(TestData.LOOP.key(), 10, slow ? new long[] {9, 1} : new long[] {0, 10}),
            new SiteCounts(TestData.RETURN.key(), 4, new long[] {0, 0, 4, 4, 0, 4})));
  }

  private String cli(String... args) {
    List<String> argv = new ArrayList<>(List.of("--server", daemon.httpUri().toString()));
    argv.addAll(List.of(args));
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int code =
        WhyslowCli.run(
            argv,
            new PrintStream(out, true, StandardCharsets.UTF_8),
            new PrintStream(err, true, StandardCharsets.UTF_8),
            Map.of());
    assertThat(code).as(err.toString(StandardCharsets.UTF_8)).isZero();
    return out.toString(StandardCharsets.UTF_8);
  }
}
