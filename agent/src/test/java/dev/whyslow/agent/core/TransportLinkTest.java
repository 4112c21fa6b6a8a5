package dev.whyslow.agent.core;

import static org.assertj.core.api.Assertions.assertThat;

import dev.whyslow.agent.config.AgentConfig;
import dev.whyslow.agent.config.AgentConfigLoader;
import dev.whyslow.agent.config.LogLevel;
import dev.whyslow.protocol.Label;
import dev.whyslow.protocol.Run;
import dev.whyslow.protocol.RunKind;
import java.io.IOException;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * What is offered before the transport exists (within {@code daemon.connect.delay}) is held and
 * handed to it, up to the queue's capacity; past it, runs are dropped and counted.
 */
class TransportLinkTest {
  @Test
  void runsOfferedBeforeTheTransportExistsReachItsQueue() throws IOException {
    TransportLink link = link("queue.capacity=8");
    for (int i = 0; i < 3; i++) {
      assertThat(link.offerRun(run(i))).isTrue();
    }
    assertThat(link.counts().runsDropped()).isZero();

    link.start();
    // The daemon's port is closed: closing at once drops what the transport's queue holds, which
    // counts there, not as runs the transport never saw.
    link.flushAndClose(Duration.ZERO);
    TransportLink.Counts counts = link.counts();
    assertThat(counts.localDrops()).isZero();
    assertThat(counts.runsDropped()).isEqualTo(3);
  }

  @Test
  void pastTheQueueCapacityEarlyRunsAreDroppedAndCounted() throws IOException {
    TransportLink link = link("queue.capacity=2");
    assertThat(link.offerRun(run(0))).isTrue();
    assertThat(link.offerRun(run(1))).isTrue();
    assertThat(link.offerRun(run(2))).isFalse();
    assertThat(link.counts().localDrops()).isEqualTo(1);
    link.start();
    link.flushAndClose(Duration.ZERO);
    assertThat(link.counts().runsDropped()).isEqualTo(3);
  }

  private static TransportLink link(String settings) throws IOException {
    AgentConfig config =
        AgentConfigLoader.load(
                "service=link-test,include=x,daemon=127.0.0.1:" + closedPort() + "," + settings,
                Map.of(),
                Map.of())
            .config();
    SamplingPlan sampling =
        new SamplingPlan(config.invocations(), config.samplingRate(), JitSettling.ofThisJvm(1_000));
    return new TransportLink(config, new AgentLog(LogLevel.WARN), () -> null, sampling);
  }

  private static int closedPort() throws IOException {
    try (ServerSocket s = new ServerSocket(0)) {
      return s.getLocalPort();
    }
  }

  private static Run run(long sequence) {
    return new Run(
        sequence, RunKind.UNIT, 1_700_000_000_000L, 1_000, Label.SUCCESS, "t", 1e-4, List.of());
  }
}
