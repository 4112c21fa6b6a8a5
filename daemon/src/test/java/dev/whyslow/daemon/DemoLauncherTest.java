package dev.whyslow.daemon;

import static org.assertj.core.api.Assertions.assertThat;

import dev.whyslow.daemon.config.DaemonConfig;
import dev.whyslow.storage.InMemoryStore;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DemoLauncherTest {
  private static final DaemonConfig EPHEMERAL =
      DaemonConfig.defaults().with(Map.of("agent.bind", "127.0.0.1:0", "http.bind", "127.0.0.1:0"));

  @Test
  void demoStartsAgainstTheRunningDaemonAndStopsBeforeIt() {
    AtomicReference<RunningDaemon> seen = new AtomicReference<>();
    AtomicBoolean stopped = new AtomicBoolean();
    AtomicBoolean storeOpenWhenStopped = new AtomicBoolean();
    InMemoryStore store = new InMemoryStore();
    RunningDaemon daemon =
        Whyslowd.builder(EPHEMERAL)
            .store(store)
            .demo(
                running -> {
                  seen.set(running);
                  return () -> {
                    stopped.set(true);
                    storeOpenWhenStopped.set(store.services() != null);
                  };
                })
            .start();
    assertThat(seen.get()).isSameAs(daemon);
    assertThat(seen.get().agentPort()).isPositive();
    daemon.close();
    assertThat(stopped).isTrue();
    assertThat(storeOpenWhenStopped).isTrue();
  }

  @Test
  void demoWhoseJarsAreMissingSaysHowToBuildThemAndExitsWith1(@TempDir Path dir) {
    String property = "whyslow.demo.agent.jar";
    String missing = dir.resolve("no-such-agent.jar").toString();
    System.setProperty(property, missing);
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    try {
      Whyslowd.Launch launch =
          Whyslowd.launch(
              new String[] {
                "--demo",
                "--agent.bind=127.0.0.1:0",
                "--http.bind=127.0.0.1:0",
                "--data.dir=" + dir.resolve("data")
              },
              new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8),
              new PrintStream(err, true, StandardCharsets.UTF_8));
      launch.daemon().ifPresent(RunningDaemon::close);
      assertThat(launch.exitCode()).isEqualTo(1);
      assertThat(err.toString(StandardCharsets.UTF_8))
          .contains(missing)
          .contains("mvn -DskipTests package");
    } finally {
      System.clearProperty(property);
    }
  }
}
