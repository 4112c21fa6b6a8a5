package dev.whyslow.bench.overhead;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

class AgentArmTest {
  @Test
  void anArmIsItsNameAndItsOptionsSplitOnSpaces() {
    AgentArm arm =
        AgentArm.parse("share01=-javaagent:a.jar=include=x,sampling.invocation.share=0.01  -Xss2m");

    assertThat(arm.name()).isEqualTo("share01");
    assertThat(arm.jvmOptions())
        .containsExactly("-javaagent:a.jar=include=x,sampling.invocation.share=0.01", "-Xss2m");
  }

  @Test
  void anArmWithNoOptionsRunsThePlainJvm() {
    assertThat(AgentArm.parse("plain=").jvmOptions()).isEqualTo(List.of());
  }

  @Test
  void aSpecWithoutANameIsRefusedWithTheFormat() {
    assertThatThrownBy(() -> AgentArm.parse("-javaagent:a.jar"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("name=JVM options");
    assertThatThrownBy(() -> AgentArm.parse("=-Xss2m")).hasMessageContaining("name=JVM options");
  }

  @Test
  void theBaselinesNameAndOddNamesAreRefused() {
    assertThatThrownBy(() -> AgentArm.parse("without=-Xss2m"))
        .hasMessageContaining("not 'without'");
    assertThatThrownBy(() -> AgentArm.parse("my arm=-Xss2m")).hasMessageContaining("'my arm'");
  }
}
