package dev.whyslow.daemon;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.whyslow.daemon.config.DaemonConfig;
import dev.whyslow.protocol.HelloOk;
import dev.whyslow.protocol.RunBatch;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The daemon as it runs in production: on RocksDB in a data directory, started from arguments. */
class WhyslowdRocksDbTest {
  // Recent, so the retention pass at startup keeps them.
  private static final long T0 = System.currentTimeMillis() - 60_000;

  @TempDir Path dataDir;

  private DaemonConfig config() {
    return DaemonConfig.defaults()
        .with("data.dir", dataDir.toString())
        .with("agent.bind", "127.0.0.1:0")
        .with("http.bind", "127.0.0.1:0")
        .with(Map.of("storage.cache.bytes", "16MiB", "storage.write.buffer.bytes", "8MiB"));
  }

  private static int runCount(TestHttp http) {
    try {
      return http.get("/api/v1/runs?service=checkout").json().get("count").asInt();
    } catch (Exception e) {
      throw new AssertionError(e);
    }
  }

  @Test
  void runsAndLabelsSurviveARestartOnTheSameDataDirectory() throws Exception {
    try (RunningDaemon daemon = Whyslowd.start(config())) {
      TestHttp http = new TestHttp(daemon.httpUri());
      try (TestAgent agent = new TestAgent(daemon.agentAddress())) {
        agent.send(TestData.hello());
        assertThat(agent.read()).isInstanceOf(HelloOk.class);
        agent.send(TestData.SITES);
        agent.send(new RunBatch(List.of(TestData.run(1, T0), TestData.run(2, T0 + 1000))));
        Await.until("runs stored in RocksDB", () -> runCount(http) == 2);
      }
      String id = http.get("/api/v1/runs").json().get("runs").get(0).get("id").asText();
      assertThat(
              http.post(
                      "/api/v1/labels", "{\"label\":\"failure\",\"runIds\":[\"" + id + "\"]}", null)
                  .json()
                  .get("relabelled")
                  .asLong())
          .isEqualTo(1);
      assertThat(http.get("/metrics").body())
          .contains("whyslow_store_runs 2.0")
          .contains("whyslow_store_disk_bytes")
          .contains("whyslow_rocksdb_pending_compaction_bytes");
    }

    try (RunningDaemon again = Whyslowd.start(config())) {
      TestHttp http = new TestHttp(again.httpUri());
      JsonNode runs = http.get("/api/v1/runs?service=checkout").json();
      assertThat(runs.get("count").asInt()).isEqualTo(2);
      assertThat(runs.get("runs").get(0).get("label").asText()).isEqualTo("failure");
      assertThat(http.get("/api/v1/services/checkout/sites").json().get("count").asInt())
          .isEqualTo(2);

      // Sites stored before the restart count as known: a new connection may send runs at once.
      try (TestAgent agent = new TestAgent(again.agentAddress())) {
        agent.send(TestData.hello("host-b", "1.1", ""));
        assertThat(agent.read()).isInstanceOf(HelloOk.class);
        agent.send(new RunBatch(List.of(TestData.run(1, T0 + 5000))));
        Await.until("run stored after restart", () -> runCount(http) == 3);
      }
    }
  }

  @Test
  void commandLineStartsPrintsTheListeningLineAndBadArgumentsExitWith2() throws Exception {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    Whyslowd.Launch launch =
        Whyslowd.launch(
            new String[] {
              "--data.dir=" + dataDir, "--agent.bind=127.0.0.1:0", "--http.bind=127.0.0.1:0"
            },
            new PrintStream(out, true, StandardCharsets.UTF_8),
            new PrintStream(err, true, StandardCharsets.UTF_8));
    try (RunningDaemon daemon = launch.daemon().orElseThrow()) {
      assertThat(out.toString(StandardCharsets.UTF_8))
          .contains("listening: agents on 127.0.0.1:" + daemon.agentPort())
          .contains("http on 127.0.0.1:" + daemon.httpPort())
          .contains("data in " + dataDir.toAbsolutePath().normalize());

      // A second daemon on the same HTTP port cannot start, and says which setting to change.
      ByteArrayOutputStream err2 = new ByteArrayOutputStream();
      Whyslowd.Launch clash =
          Whyslowd.launch(
              new String[] {
                "--data.dir=" + dataDir.resolve("other"),
                "--agent.bind=127.0.0.1:0",
                "--http.bind=127.0.0.1:" + daemon.httpPort()
              },
              new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8),
              new PrintStream(err2, true, StandardCharsets.UTF_8));
      assertThat(clash.daemon()).isEmpty();
      assertThat(clash.exitCode()).isEqualTo(Whyslowd.EXIT_START);
      assertThat(err2.toString(StandardCharsets.UTF_8))
          .contains("cannot listen for http on 127.0.0.1:" + daemon.httpPort())
          .contains("set http.bind");
    }

    Whyslowd.Launch bad =
        Whyslowd.launch(
            new String[] {"--agent.bind=127.0.0.1:70000"},
            new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8),
            new PrintStream(err, true, StandardCharsets.UTF_8));
    assertThat(bad.exitCode()).isEqualTo(2);
    assertThat(err.toString(StandardCharsets.UTF_8))
        .contains("whyslowd: invalid agent.bind '127.0.0.1:70000' (from --agent.bind)");
  }
}
