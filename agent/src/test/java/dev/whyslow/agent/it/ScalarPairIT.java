package dev.whyslow.agent.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.whyslow.agent.core.RunDump;
import dev.whyslow.protocol.SiteKind;
import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Scalar pairs on, with {@code java.util} in scope, under {@code -Xverify:all} on every JDK the
 * harness finds: every inserted load verifies, the application's output and exception are the same
 * as without the agent, and the pairs count exactly.
 */
class ScalarPairIT {
  private static final String WORKLOAD = "sample.workload.Workload";

  @TempDir Path dir;

  static List<Jdks.Jdk> jdks() {
    return Jdks.all();
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("jdks")
  void withEveryProbeFamilyTheApplicationIsUnchangedAndPairsCountExactly(Jdks.Jdk jdk)
      throws Exception {
    Path dump = dir.resolve("scalar-pairs.dump");
    ChildJvm.Result plain =
        ChildJvm.run(jdk, List.of("-Xverify:all"), WORKLOAD, List.of("throw"), dir);
    ChildJvm.Result agent =
        ChildJvm.run(
            jdk,
            List.of(
                "-Xverify:all",
                ChildJvm.javaagent(
                    "service=it,include=sample.workload,java.util,probes=all,sampling.rate=1,"
                        + "log=info,shutdown.flush.timeout.ms=0,dump="
                        + dump
                        + ",daemon=127.0.0.1:"
                        + closedPort())),
            WORKLOAD,
            List.of("throw"),
            dir);

    assertThat(plain.exitCode()).isEqualTo(1);
    assertThat(agent.stdout()).isEqualTo(plain.stdout());
    assertThat(agent.applicationStderr()).isEqualTo(plain.applicationStderr());
    assertThat(agent.exitCode()).isEqualTo(plain.exitCode());
    assertThat(agent.stderr())
        .doesNotContain("internal error", "could not instrument", "VerifyError");
    assertThat(agent.agentLines())
        .anySatisfy(l -> assertThat(l).contains("agent errors 0"))
        .anySatisfy(
            l -> assertThat(l).containsPattern("exit: [1-9][0-9]{2,} classes instrumented"));

    RunDump.Contents contents = RunDump.read(dump);
    // for (int i = 0; i < 2000; i++) in main: i++ makes i bigger every time.
    List<RunDump.DumpedSite> oldI =
        contents.sitesOf(WORKLOAD, "main").stream()
            .filter(s -> s.detail().equals("new i vs old i"))
            .toList();
    assertThat(oldI).hasSize(1);
    assertThat(oldI.get(0).kind()).isEqualTo(SiteKind.SCALAR_PAIR);
    assertThat(oldI.get(0).observed()).isEqualTo(2000);
    assertThat(oldI.get(0).trueCounts()).containsExactly(0, 0, 2000, 2000, 0, 2000);
    assertThat(contents.sites())
        .anySatisfy(
            s -> {
              assertThat(s.className()).startsWith("java.util.");
              assertThat(s.kind()).isEqualTo(SiteKind.SCALAR_PAIR);
              assertThat(s.observed()).isPositive();
            });
  }

  /** A port nothing listens on: bound once to get a free number, then closed. */
  private static int closedPort() throws IOException {
    try (ServerSocket socket = new ServerSocket(0)) {
      return socket.getLocalPort();
    }
  }
}
