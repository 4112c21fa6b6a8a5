package dev.whyslow.examples.ops;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The alert rules in {@code deploy/prometheus} pass Prometheus' own checker and their unit tests
 * ({@code whyslow-alerts.test.yml}: which series fire which alert, with which labels and text), run
 * by the real {@code promtool}. Skipped, saying so, where {@code promtool} is not installed (Debian
 * package {@code prometheus}; {@code .ci/run} installs it).
 */
class AlertRulesIT {
  static final Path RULES_DIR = Path.of("../deploy/prometheus");

  private String promtool;

  @BeforeEach
  void findPromtool() {
    promtool = Monitoring.binary("promtool");
    assumeTrue(
        promtool != null,
        "skipped: the promtool binary is not on PATH (Debian package prometheus)");
  }

  @Test
  void rulesAreValid() throws Exception {
    assertThat(run(List.of(promtool, "check", "rules", "whyslow-alerts.yml")))
        .contains("SUCCESS")
        .doesNotContain("FAILED");
  }

  @Test
  void rulesPassTheirUnitTests() throws Exception {
    assertThat(run(List.of(promtool, "test", "rules", "whyslow-alerts.test.yml")))
        .contains("SUCCESS");
  }

  /** Runs {@code command} in the rules' directory and returns its output if it exits with 0. */
  private static String run(List<String> command) throws IOException, InterruptedException {
    Process process =
        new ProcessBuilder(command).directory(RULES_DIR.toFile()).redirectErrorStream(true).start();
    if (!process.waitFor(60, TimeUnit.SECONDS)) {
      process.destroyForcibly();
      throw new AssertionError(String.join(" ", command) + " did not finish within 60 s");
    }
    String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(process.exitValue())
        .as("%s exit status; its output:%n%s", String.join(" ", command), output)
        .isZero();
    return output;
  }
}
