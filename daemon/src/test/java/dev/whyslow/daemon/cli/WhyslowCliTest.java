package dev.whyslow.daemon.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.whyslow.daemon.Await;
import dev.whyslow.daemon.RunningDaemon;
import dev.whyslow.daemon.TestAgent;
import dev.whyslow.daemon.TestData;
import dev.whyslow.daemon.Whyslowd;
import dev.whyslow.daemon.config.DaemonConfig;
import dev.whyslow.protocol.HelloOk;
import dev.whyslow.protocol.Label;
import dev.whyslow.protocol.RunBatch;
import dev.whyslow.protocol.SetEnabled;
import dev.whyslow.protocol.SetSamplingRate;
import dev.whyslow.storage.InMemoryStore;
import dev.whyslow.storage.RunIds;
import dev.whyslow.storage.RunOrigin;
import dev.whyslow.storage.RunQuery;
import dev.whyslow.storage.StoredRun;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class WhyslowCliTest {
  private static final long T0 = 1_718_000_000_000L; // 2024-06-10T06:13:20Z

  private final InMemoryStore store = new InMemoryStore();
  private RunningDaemon daemon;
  private List<StoredRun> stored;

  /** What one CLI invocation printed and returned. */
  private record Result(int exit, String out, String err) {}

  @BeforeEach
  void start() {
    daemon =
        Whyslowd.builder(
                DaemonConfig.defaults()
                    .with(
                        Map.of(
                            "agent.bind", "127.0.0.1:0",
                            "http.bind", "127.0.0.1:0",
                            "api.token", "t0k")))
            .store(store)
            .clock(TestData.clockAt(T0 + 3_600_000)) // retention at startup keeps the test's runs
            .start();
    store.putSites("checkout", TestData.SITES.sites());
    stored = new ArrayList<>();
    stored.addAll(
        store.putRuns(
            new RunOrigin("checkout", "host-a", "1.0"),
            List.of(TestData.run(1, T0), TestData.run(2, T0 + 1000))));
    stored.addAll(
        store.putRuns(
            new RunOrigin("checkout", "host-b", "2.0"), List.of(TestData.run(1, T0 + 2000))));
  }

  @AfterEach
  void stop() {
    daemon.close();
  }

  private Result cli(String... args) {
    List<String> all = new ArrayList<>(List.of("--server", daemon.httpUri().toString()));
    all.addAll(List.of(args));
    return raw(all, Map.of());
  }

  private static Result raw(List<String> args, Map<String, String> env) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int exit =
        WhyslowCli.run(
            args,
            new PrintStream(out, true, StandardCharsets.UTF_8),
            new PrintStream(err, true, StandardCharsets.UTF_8),
            env);
    return new Result(
        exit, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
  }

  @Test
  void servicesPrintsAnAlignedTable() {
    Result r = cli("services");
    assertThat(r.exit()).isZero();
    String[] lines = r.out().split("\n");
    assertThat(lines[0]).startsWith("SERVICE   INSTANCES      VERSIONS  SITES  RUNS  LAST RUN");
    assertThat(lines[1])
        .startsWith("checkout  host-a,host-b  1.0,2.0   2      3     2024-06-10T06:13:22Z");
  }

  @Test
  void sitesRunsAndRunShowWhatIsStored() {
    assertThat(cli("sites", "checkout").out())
        .contains("loop-branch")
        .contains("Cart.total (Cart.java:42)")
        .contains("taken,not taken");
    Result runs = cli("runs", "--service", "checkout", "--instance", "host-a");
    assertThat(runs.out().split("\n")).hasSize(3);
    assertThat(runs.out()).contains(RunIds.format(stored.get(0).runId())).contains("2.000 ms");
    Result one = cli("run", RunIds.format(stored.get(2).runId()));
    assertThat(one.out()).contains("instance:  host-b").contains("OBSERVED").contains("7,3");
  }

  @Test
  void jsonPrintsTheServersAnswer() {
    Result r = cli("--json", "runs", "--limit", "1");
    assertThat(r.out()).startsWith("{\"count\":1,\"limit\":1,\"runs\":[{\"id\":\"");
    assertThat(r.out()).doesNotContain("(first 1 runs");
  }

  @Test
  void labelByIdsAndByServiceWindowWithTheToken() {
    Result byIds =
        cli(
            "--token",
            "t0k",
            "label",
            "failure",
            "--runs",
            RunIds.format(stored.get(0).runId()) + "," + RunIds.format(stored.get(2).runId()));
    assertThat(byIds.exit()).isZero();
    assertThat(byIds.out()).isEqualTo("relabelled 2 runs as failure\n");

    Result byWindow =
        raw(
            List.of(
                "label",
                "success",
                "--server",
                daemon.httpUri().toString(),
                "--service",
                "checkout",
                "--from",
                "2024-06-10T06:13:21Z",
                "--to",
                Long.toString(T0 + 2000),
                "--version",
                "1.0"),
            Map.of("WHYSLOW_TOKEN", "t0k"));
    assertThat(byWindow.out()).isEqualTo("relabelled 1 runs as success\n");
    assertThat(store.runs(RunQuery.all()))
        .extracting(StoredRun::label)
        .containsExactly(Label.FAILURE, Label.SUCCESS, Label.FAILURE);
  }

  @Test
  void serverRefusalsPrintTheServersMessageAndExit1() {
    Result noToken = cli("label", "failure", "--service", "checkout");
    assertThat(noToken.exit()).isEqualTo(1);
    assertThat(noToken.err()).contains("Authorization: Bearer").contains("HTTP 401");

    Result missing = cli("run", "00000000000000ff");
    assertThat(missing.exit()).isEqualTo(1);
    assertThat(missing.err()).contains("no run 00000000000000ff").contains("HTTP 404");

    Result badTime = cli("runs", "--from", "yesterday");
    assertThat(badTime.exit()).isEqualTo(1);
    assertThat(badTime.err()).contains("'from'").contains("'yesterday'");
  }

  @Test
  void badArgumentsPrintUsageAndExit2() {
    for (String[] args :
        List.of(
            new String[] {},
            new String[] {"frobnicate"},
            new String[] {"sites"},
            new String[] {"runs", "--colour", "red"},
            new String[] {"label", "maybe", "--runs", "1"},
            new String[] {"label", "failure"},
            new String[] {"kill-switch", "checkout", "sideways"},
            new String[] {"sampling-rate", "checkout", "lots"},
            new String[] {"runs", "--limit"})) {
      Result r = raw(List.of(args), Map.of());
      assertThat(r.exit()).as(String.join(" ", args)).isEqualTo(2);
      assertThat(r.err())
          .as(String.join(" ", args))
          .startsWith("whyslow: ")
          .contains("usage: whyslow");
    }
    assertThat(raw(List.of("--help"), Map.of()).out()).startsWith("usage: whyslow");
  }

  @Test
  void unreachableServerSaysSoAndExits1() {
    Result r = raw(List.of("--server", "http://127.0.0.1:1", "services"), Map.of());
    assertThat(r.exit()).isEqualTo(1);
    assertThat(r.err()).contains("cannot reach whyslowd at http://127.0.0.1:1");
  }

  @Test
  void agentsSamplingRateAndKillSwitch() throws Exception {
    try (TestAgent agent = new TestAgent(daemon.agentAddress())) {
      agent.send(TestData.hello());
      assertThat(agent.read()).isInstanceOf(HelloOk.class);
      agent.send(new RunBatch(List.of()));
      Await.until("agent listed", () -> daemon.agents().size() == 1);

      assertThat(cli("agents").out()).contains("checkout").contains("host-a:1");
      Result rate = cli("--token", "t0k", "sampling-rate", "checkout", "0.001");
      assertThat(rate.out()).isEqualTo("sampling rate 0.001 sent to 1 agents of checkout\n");
      assertThat(agent.read()).isEqualTo(new SetSamplingRate(0.001));
      Result kill = cli("--token", "t0k", "kill-switch", "checkout", "on");
      assertThat(kill.out()).contains("probes disabled in 1 agents");
      assertThat(agent.read()).isEqualTo(new SetEnabled(false));
    }
    Result none = cli("--token", "t0k", "kill-switch", "search", "off");
    assertThat(none.exit()).isEqualTo(1);
    assertThat(none.err()).contains("no agent of service 'search' is connected");
  }
}
