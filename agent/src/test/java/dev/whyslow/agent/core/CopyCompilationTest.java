package dev.whyslow.agent.core;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class CopyCompilationTest {
  @Test
  void withoutTheOptionTheAdviceNamesIt() {
    assertThat(CopyCompilation.adviceFor(List.of("-Xmx1g", "-javaagent:whyslow-agent.jar")))
        .contains(CopyCompilation.OPTION);
  }

  @Test
  void withAnyThresholdScalingThereIsNothingToAdvise() {
    assertThat(CopyCompilation.adviceFor(List.of("-Xmx1g", CopyCompilation.OPTION))).isNull();
    assertThat(CopyCompilation.adviceFor(List.of("-XX:CompileThresholdScaling=0.5"))).isNull();
  }

  @Test
  void thisJvmsArgumentsCanBeRead() {
    // The test JVM has no such option (surefire's argLine does not set one).
    assertThat(CopyCompilation.adviceFor(JvmArguments.ofThisJvm()))
        .contains("CompileThresholdScaling");
  }
}
