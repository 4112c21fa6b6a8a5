package dev.whyslow.agent.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Sampling windows in a real JVM under {@code -Xverify:all}: the entries open and close several
 * times while the program runs, every instrumented method keeps answering right through the
 * changes, and the agent records samples and reports no error.
 */
class SamplingWindowsIT {
  private static final Pattern WINDOWS = Pattern.compile("sampling windows ([0-9]+)");
  private static final Pattern SAMPLES = Pattern.compile("([0-9]+) samples recorded");

  @TempDir Path dir;

  static List<Jdks.Jdk> jdks() {
    return Jdks.all();
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("jdks")
  void windowsOpenAndCloseWhileTheProgramRunsUnchanged(Jdks.Jdk jdk) throws Exception {
    ChildJvm.Result r =
        ChildJvm.run(
            jdk,
            List.of(
                "-Xverify:all",
                ChildJvm.javaagent(
                    "service=it,include=sample.workload,log=info,units=off,sampling.rate=0.0001,"
                        + "sampling.windows=on,sampling.window=1s,sampling.window.every=2s,"
                        + "sampling.invocation.settle=500ms,shutdown.flush.timeout.ms=0,"
                        + "daemon=127.0.0.1:"
                        + AgentIT.closedPort())),
            "sample.workload.Windowed",
            List.of("10"),
            dir);

    assertThat(r.exitCode()).as(r.stderr()).isZero();
    assertThat(r.stdout()).isEqualTo("all counts right\n");
    assertThat(r.agentLines())
        .anySatisfy(
            l -> assertThat(l).contains("run their own code until the next sampling window"));
    String exit =
        r.agentLines().stream().filter(l -> l.contains("exit:")).findFirst().orElseThrow();
    assertThat(exit).contains("agent errors 0");
    Matcher windows = WINDOWS.matcher(exit);
    assertThat(windows.find()).as(exit).isTrue();
    assertThat(Integer.parseInt(windows.group(1))).as(exit).isGreaterThanOrEqualTo(2);
    Matcher samples = SAMPLES.matcher(exit);
    assertThat(samples.find()).as(exit).isTrue();
    assertThat(Long.parseLong(samples.group(1))).as(exit).isPositive();
  }
}
