package dev.whyslow.bench.startup;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.whyslow.bench.overhead.NoopAgentJar;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

class StartupBenchmarkTest {
  @Test
  void aJvmReportsItsTimeToMainWithAnAgentAndWithout() throws Exception {
    Path mainJar = StartupBenchmark.mainJar();

    long without = StartupBenchmark.timeToMain(mainJar, StartupBenchmark.NONE, "");
    long with = StartupBenchmark.timeToMain(mainJar, NoopAgentJar.write().toString(), "");

    assertThat(without).isPositive().isLessThan(60_000);
    assertThat(with).isPositive().isLessThan(60_000);
  }

  @Test
  void aJvmThatFailsToStartIsAnErrorNotATime() throws Exception {
    Path mainJar = StartupBenchmark.mainJar();

    assertThatThrownBy(() -> StartupBenchmark.timeToMain(mainJar, "/nonexistent/agent.jar", ""))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("exited with")
        .hasMessageContaining("Error opening zip file");
  }
}
