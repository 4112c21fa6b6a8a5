package dev.whyslow.bench.overhead;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import java.util.jar.JarFile;
import org.junit.jupiter.api.Test;

class NoopAgentJarTest {
  @Test
  void theJarNamesTheNoopAgentAsPremainAndHoldsItsClassOnly() throws Exception {
    Path jar = NoopAgentJar.write();

    try (JarFile file = new JarFile(jar.toFile())) {
      assertThat(file.getManifest().getMainAttributes().getValue("Premain-Class"))
          .isEqualTo(NoopAgent.class.getName());
      assertThat(file.stream().map(e -> e.getName()).filter(n -> n.endsWith(".class")))
          .containsExactly("dev/whyslow/bench/overhead/NoopAgent.class");
    }
  }

  @Test
  void aJvmStartsWithItAsItsAgentAndRunsAsUsual() throws Exception {
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    Process jvm =
        new ProcessBuilder(java, "-javaagent:" + NoopAgentJar.resolve("noop"), "-version")
            .redirectErrorStream(true)
            .start();
    String output = new String(jvm.getInputStream().readAllBytes(), StandardCharsets.UTF_8);

    assertThat(jvm.waitFor(60, TimeUnit.SECONDS)).isTrue();
    assertThat(jvm.exitValue()).as(output).isZero();
    assertThat(output).contains("version").doesNotContain("Error", "Exception");
  }

  @Test
  void anyOtherNameIsTakenAsAPath() throws Exception {
    assertThat(NoopAgentJar.resolve("agent/target/whyslow-agent.jar"))
        .isEqualTo("agent/target/whyslow-agent.jar");
  }
}
