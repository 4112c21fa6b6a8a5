package dev.whyslow.agent.core;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class AotCacheAdviceTest {
  @Test
  void anAotCacheWithJavaagentIsAdvisedTheInstrumentLibrary() {
    assertThat(
            AotCacheAdvice.adviceFor(
                List.of("-XX:AOTCache=app.aot", "-javaagent:/opt/whyslow-agent.jar=service=x")))
        .contains("-agentlib:instrument=")
        .contains("AOT cache");
  }

  @Test
  void eitherAloneNeedsNoAdvice() {
    assertThat(AotCacheAdvice.adviceFor(List.of("-XX:AOTCache=app.aot"))).isNull();
    assertThat(AotCacheAdvice.adviceFor(List.of("-javaagent:/opt/whyslow-agent.jar"))).isNull();
    assertThat(
            AotCacheAdvice.adviceFor(
                List.of("-XX:AOTCache=app.aot", "-agentlib:instrument=/opt/whyslow-agent.jar")))
        .isNull();
  }

  @Test
  void makingACacheIsNotUsingOne() {
    assertThat(
            AotCacheAdvice.adviceFor(
                List.of("-XX:AOTCacheOutput=app.aot", "-javaagent:/opt/whyslow-agent.jar")))
        .isNull();
  }
}
