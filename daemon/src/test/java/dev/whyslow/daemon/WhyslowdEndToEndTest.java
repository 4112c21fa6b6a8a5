package dev.whyslow.daemon;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.whyslow.daemon.config.DaemonConfig;
import dev.whyslow.protocol.ErrorCode;
import dev.whyslow.protocol.ErrorMessage;
import dev.whyslow.protocol.Hello;
import dev.whyslow.protocol.HelloOk;
import dev.whyslow.protocol.Label;
import dev.whyslow.protocol.Message;
import dev.whyslow.protocol.MessageCodec;
import dev.whyslow.protocol.RunBatch;
import dev.whyslow.protocol.SetEnabled;
import dev.whyslow.protocol.SetSamplingRate;
import dev.whyslow.storage.InMemoryStore;
import dev.whyslow.storage.RunQuery;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** A real daemon on ephemeral ports, spoken to over plain sockets and HTTP. */
class WhyslowdEndToEndTest {
  static final String AGENT_TOKEN = "agent-s3cret";
  static final String API_TOKEN = "api-s3cret";
  static final long T0 = 1_718_000_000_000L; // 2024-06-10T06:13:20Z

  private final InMemoryStore store = new InMemoryStore();
  private RunningDaemon daemon;
  private TestHttp http;

  static DaemonConfig config() {
    return DaemonConfig.defaults()
        .with("agent.bind", "127.0.0.1:0")
        .with("http.bind", "127.0.0.1:0")
        .with("agent.token", AGENT_TOKEN)
        .with("api.token", API_TOKEN)
        .with("agent.max.frame.bytes", "64KiB");
  }

  @BeforeEach
  void start() {
    // The clock is near the runs' times, so retention at startup keeps them.
    daemon = Whyslowd.builder(config()).store(store).clock(TestData.clockAt(T0)).start();
    http = new TestHttp(daemon.httpUri());
  }

  @AfterEach
  void stop() {
    daemon.close();
  }

  private TestAgent agent() throws Exception {
    return new TestAgent(daemon.agentAddress());
  }

  private static Hello hello(String instance, String version) {
    return TestData.hello(instance, version, AGENT_TOKEN);
  }

  /** Connects, says hello and sends the sites; the caller owns the connection. */
  private TestAgent handshaken(String instance, String version) throws Exception {
    TestAgent agent = agent();
    agent.send(hello(instance, version));
    assertThat(agent.read()).isInstanceOf(HelloOk.class);
    agent.send(TestData.SITES);
    return agent;
  }

  private int storedRuns() {
    return store.runs(RunQuery.all()).size();
  }

  /** Stores two runs through a good connection, so bad input can be shown to lose nothing. */
  private void storeTwoRuns() throws Exception {
    try (TestAgent good = handshaken("host-a", "1.0")) {
      good.send(new RunBatch(List.of(TestData.run(1, T0), TestData.run(2, T0 + 1000))));
      Await.until("two runs stored", () -> storedRuns() == 2);
    }
  }

  private static ErrorMessage error(Message message) {
    assertThat(message).isInstanceOf(ErrorMessage.class);
    return (ErrorMessage) message;
  }

  @Test
  void handshakeSitesAndRunsAreStoredAndVisibleOverHttp() throws Exception {
    try (TestAgent agent = agent()) {
      agent.send(hello("host-a", "1.0"));
      assertThat(agent.read()).isEqualTo(new HelloOk(BuildInfo.version(), 64 * 1024));
      agent.send(TestData.SITES);
      agent.send(new RunBatch(List.of(TestData.run(1, T0), TestData.run(2, T0 + 1000))));
      agent.send(TestData.stats(1, 500));

      Await.until(
          "runs visible over HTTP",
          () -> {
            try {
              return http.get("/api/v1/runs?service=checkout").json().get("count").asInt() == 2;
            } catch (Exception e) {
              throw new AssertionError(e);
            }
          });
      JsonNode services = http.get("/api/v1/services").json().get("services");
      assertThat(services.get(0).get("service").asText()).isEqualTo("checkout");
      assertThat(services.get(0).get("siteCount").asInt()).isEqualTo(2);
      assertThat(services.get(0).get("connectedAgents").asInt()).isEqualTo(1);
      assertThat(http.get("/api/v1/services/checkout/sites").json().get("count").asInt())
          .isEqualTo(2);
      String id = http.get("/api/v1/runs").json().get("runs").get(1).get("id").asText();
      JsonNode run = http.get("/api/v1/runs/" + id).json();
      assertThat(run.get("sites")).hasSize(2);
      Await.until("agent stats", () -> daemon.agents().agents().get(0).latestStats().isPresent());
      assertThat(
              http.get("/api/v1/agents")
                  .json()
                  .get("agents")
                  .get(0)
                  .get("stats")
                  .get("samplesRecorded")
                  .asLong())
          .isEqualTo(500);
    }
  }

  @Test
  void badTokenIsRefusedAndClosesLosingNothing() throws Exception {
    storeTwoRuns();
    try (TestAgent agent = agent()) {
      agent.send(TestData.hello("host-x", "1.0", "wrong"));
      ErrorMessage e = error(agent.read());
      assertThat(e.code()).isEqualTo(ErrorCode.BAD_TOKEN);
      assertThat(e.fatal()).isTrue();
      assertThat(agent.closedByDaemon()).isTrue();
    }
    assertThat(storedRuns()).isEqualTo(2);
  }

  @Test
  void wrongProtocolVersionIsRefused() throws Exception {
    storeTwoRuns();
    try (TestAgent agent = agent()) {
      agent.send(new Hello(42, "checkout", "host-x", "1.0", "0.1.0", AGENT_TOKEN));
      assertThat(error(agent.read()).code()).isEqualTo(ErrorCode.UNSUPPORTED_VERSION);
      assertThat(agent.closedByDaemon()).isTrue();
    }
    assertThat(storedRuns()).isEqualTo(2);
  }

  @Test
  void garbageBytesAreMalformedAndClose() throws Exception {
    storeTwoRuns();
    try (TestAgent agent = handshaken("host-b", "1.0")) {
      agent.sendBytes(new byte[] {0, 0, 0, 5, 77, 1, 2, 3, 4});
      ErrorMessage e = error(agent.read());
      assertThat(e.code()).isEqualTo(ErrorCode.MALFORMED_FRAME);
      assertThat(e.message()).contains("unknown message type 77");
      assertThat(agent.closedByDaemon()).isTrue();
    }
    assertThat(storedRuns()).isEqualTo(2);
  }

  @Test
  void truncatedFrameThenCloseIsReportedAndEarlierRunsKept() throws Exception {
    try (TestAgent agent = handshaken("host-a", "1.0")) {
      agent.send(new RunBatch(List.of(TestData.run(1, T0))));
      byte[] frame = MessageCodec.encodeFrame(new RunBatch(List.of(TestData.run(2, T0 + 1))));
      agent.sendBytes(Arrays.copyOf(frame, frame.length / 2));
      agent.shutdownOutput();
      ErrorMessage e = error(agent.read());
      assertThat(e.code()).isEqualTo(ErrorCode.MALFORMED_FRAME);
      assertThat(e.message()).contains("truncated");
      assertThat(agent.closedByDaemon()).isTrue();
    }
    Await.until("first batch stored", () -> storedRuns() == 1);
  }

  @Test
  void oversizedLengthPrefixIsRefusedWithoutReadingTheFrame() throws Exception {
    storeTwoRuns();
    try (TestAgent agent = handshaken("host-a", "1.0")) {
      agent.sendBytes(new byte[] {0x7f, (byte) 0xff, (byte) 0xff, (byte) 0xff, 5});
      ErrorMessage e = error(agent.read());
      assertThat(e.code()).isEqualTo(ErrorCode.FRAME_TOO_LARGE);
      assertThat(e.message()).contains("65536");
      assertThat(agent.closedByDaemon()).isTrue();
    }
    assertThat(storedRuns()).isEqualTo(2);
  }

  @Test
  void runsBeforeTheHandshakeAreRefused() throws Exception {
    storeTwoRuns();
    try (TestAgent agent = agent()) {
      agent.send(new RunBatch(List.of(TestData.run(9, T0))));
      assertThat(error(agent.read()).code()).isEqualTo(ErrorCode.HANDSHAKE_REQUIRED);
      assertThat(agent.closedByDaemon()).isTrue();
    }
    assertThat(storedRuns()).isEqualTo(2);
  }

  @Test
  void unknownSiteRejectsOnlyThatBatchAndTheConnectionGoesOn() throws Exception {
    storeTwoRuns();
    try (TestAgent agent = handshaken("host-a", "1.0")) {
      agent.send(new RunBatch(List.of(TestData.runWithUnknownSite(3, T0 + 5))));
      ErrorMessage e = error(agent.read());
      assertThat(e.code()).isEqualTo(ErrorCode.UNKNOWN_SITE);
      assertThat(e.fatal()).isFalse();
      assertThat(e.message()).contains("0123456789abcdef");

      agent.send(new RunBatch(List.of(TestData.run(4, T0 + 6))));
      Await.until("the next batch stored", () -> storedRuns() == 3);
    }
    assertThat(http.get("/metrics").body())
        .contains("whyslow_ingest_rejected_total{reason=\"unknown_site\",} 1.0");
  }

  @Test
  void tooManyConnectionsAreTurnedAway() throws Exception {
    try (RunningDaemon small =
        Whyslowd.builder(config().with("agent.max.connections", "1"))
            .store(new InMemoryStore())
            .clock(TestData.clockAt(T0))
            .start()) {
      try (TestAgent first = new TestAgent(small.agentAddress())) {
        first.send(hello("host-a", "1.0"));
        assertThat(first.read()).isInstanceOf(HelloOk.class);
        try (TestAgent second = new TestAgent(small.agentAddress())) {
          assertThat(error(second.read()).code()).isEqualTo(ErrorCode.TOO_MANY_CONNECTIONS);
          assertThat(second.closedByDaemon()).isTrue();
        }
      }
    }
  }

  @Test
  void labellingOverHttpByIdsAndByRangeInstanceAndVersion() throws Exception {
    try (TestAgent a = handshaken("host-a", "1.0");
        TestAgent b = handshaken("host-b", "2.0")) {
      a.send(new RunBatch(List.of(TestData.run(1, T0), TestData.run(2, T0 + 1000))));
      b.send(new RunBatch(List.of(TestData.run(1, T0 + 2000), TestData.run(2, T0 + 3000))));
      Await.until("four runs", () -> storedRuns() == 4);
    }
    JsonNode runs = http.get("/api/v1/runs?service=checkout").json().get("runs");
    String first = runs.get(0).get("id").asText();

    TestHttp.Reply byId =
        http.post(
            "/api/v1/labels", "{\"label\":\"failure\",\"runIds\":[\"" + first + "\"]}", API_TOKEN);
    assertThat(byId.status()).isEqualTo(200);
    assertThat(byId.json().get("relabelled").asLong()).isEqualTo(1);

    TestHttp.Reply byVersion =
        http.post(
            "/api/v1/labels",
            "{\"label\":\"success\",\"service\":\"checkout\",\"version\":\"2.0\"}",
            API_TOKEN);
    assertThat(byVersion.json().get("relabelled").asLong()).isEqualTo(2);

    TestHttp.Reply byRange =
        http.post(
            "/api/v1/labels",
            "{\"label\":\"failure\",\"service\":\"checkout\",\"instance\":\"host-a\","
                + "\"from\":\"2024-06-10T06:13:21Z\",\"to\":\"2024-06-10T06:13:22Z\"}",
            API_TOKEN);
    assertThat(byRange.json().get("relabelled").asLong()).isEqualTo(1);

    assertThat(store.runs(RunQuery.all()))
        .extracting(r -> r.label())
        .containsExactly(Label.FAILURE, Label.FAILURE, Label.SUCCESS, Label.SUCCESS);
    assertThat(http.get("/api/v1/runs?label=failure").json().get("count").asInt()).isEqualTo(2);
  }

  @Test
  void writesWithoutTheTokenAreUnauthorizedAndChangeNothing() throws Exception {
    storeTwoRuns();
    TestHttp.Reply none =
        http.post("/api/v1/labels", "{\"label\":\"failure\",\"service\":\"checkout\"}", null);
    assertThat(none.status()).isEqualTo(401);
    assertThat(none.json().get("error").asText()).contains("Bearer");
    TestHttp.Reply wrong =
        http.post("/api/v1/labels", "{\"label\":\"failure\",\"service\":\"checkout\"}", "guess");
    assertThat(wrong.status()).isEqualTo(401);
    assertThat(store.runs(RunQuery.all())).allMatch(r -> r.label() == Label.DO_NOT_CARE);
  }

  @Test
  void malformedJsonIsABadRequestWithAMessage() throws Exception {
    storeTwoRuns();
    TestHttp.Reply reply = http.post("/api/v1/labels", "{\"label\": \"failure\", ", API_TOKEN);
    assertThat(reply.status()).isEqualTo(400);
    assertThat(reply.json().get("error").asText()).contains("not valid JSON");
    assertThat(store.runs(RunQuery.all())).allMatch(r -> r.label() == Label.DO_NOT_CARE);
  }

  @Test
  void oversizedBodyIsRefusedWith413() throws Exception {
    String big = "{\"label\":\"failure\",\"runIds\":[\"" + "a".repeat(2 << 20) + "\"]}";
    TestHttp.Reply reply = http.post("/api/v1/labels", big, API_TOKEN);
    assertThat(reply.status()).isEqualTo(413);
    assertThat(reply.json().get("error").asText()).contains("http.max.body.bytes");
  }

  @Test
  void unknownPathsAndMethodsAreAnsweredInJson() throws Exception {
    assertThat(http.get("/api/v1/nope").status()).isEqualTo(404);
    TestHttp.Reply wrongMethod = http.post("/api/v1/runs", "{}", API_TOKEN);
    assertThat(wrongMethod.status()).isEqualTo(405);
    assertThat(wrongMethod.json().get("error").asText()).contains("GET");
  }

  @Test
  void metricsShowIngestCountersAndConnectedAgents() throws Exception {
    try (TestAgent agent = handshaken("host-a", "1.0")) {
      agent.send(new RunBatch(List.of(TestData.run(1, T0))));
      Await.until("run stored", () -> storedRuns() == 1);
      String metrics = http.get("/metrics").body();
      assertThat(metrics)
          .contains("whyslow_ingest_runs_total 1.0")
          .contains("whyslow_ingest_sites_total 2.0")
          .contains("whyslow_ingest_frames_total{type=\"hello\",} 1.0")
          .contains("whyslow_agents_connected 1.0")
          .contains("whyslow_store_runs 1.0")
          .contains("whyslow_ingest_write_seconds_bucket");
    }
  }

  @Test
  void commandsReachTheConnectedAgent() throws Exception {
    try (TestAgent agent = handshaken("host-a", "1.0")) {
      Await.until("agent registered", () -> daemon.agents().size() == 1);
      TestHttp.Reply rate =
          http.post(
              "/api/v1/agents/sampling-rate",
              "{\"service\":\"checkout\",\"rate\":0.01}",
              API_TOKEN);
      assertThat(rate.status()).isEqualTo(200);
      assertThat(agent.read()).isEqualTo(new SetSamplingRate(0.01));
      http.post(
          "/api/v1/agents/enabled", "{\"service\":\"checkout\",\"enabled\":false}", API_TOKEN);
      assertThat(agent.read()).isEqualTo(new SetEnabled(false));
    }
  }

  @Test
  void healthIsOk() throws Exception {
    TestHttp.Reply health = http.get("/health");
    assertThat(health.status()).isEqualTo(200);
    assertThat(health.json().get("status").asText()).isEqualTo("ok");
  }
}
