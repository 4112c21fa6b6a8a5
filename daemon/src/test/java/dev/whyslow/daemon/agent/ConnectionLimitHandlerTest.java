package dev.whyslow.daemon.agent;

import static org.assertj.core.api.Assertions.assertThat;

import dev.whyslow.daemon.metrics.DaemonMetrics;
import dev.whyslow.protocol.ErrorCode;
import dev.whyslow.protocol.ErrorMessage;
import io.netty.channel.embedded.EmbeddedChannel;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class ConnectionLimitHandlerTest {
  private final DaemonMetrics metrics = new DaemonMetrics("test");
  private final ConnectionLimitHandler limit =
      new ConnectionLimitHandler(2, new ErrorReplies(metrics));

  @AfterEach
  void close() {
    metrics.close();
  }

  @Test
  void connectionsOverTheLimitAreToldWhyAndClosed() {
    EmbeddedChannel first = new EmbeddedChannel(limit);
    EmbeddedChannel second = new EmbeddedChannel(limit);
    EmbeddedChannel third = new EmbeddedChannel(limit);

    assertThat(first.<Object>readOutbound()).isNull();
    assertThat(second.<Object>readOutbound()).isNull();
    ErrorMessage error = third.readOutbound();
    assertThat(error.code()).isEqualTo(ErrorCode.TOO_MANY_CONNECTIONS);
    assertThat(error.message()).contains("2 agent connections").contains("agent.max.connections");
    assertThat(third.isOpen()).isFalse();
    assertThat(limit.openConnections()).isEqualTo(2);

    first.close();
    EmbeddedChannel fourth = new EmbeddedChannel(limit);
    assertThat(fourth.<Object>readOutbound()).isNull();
    assertThat(fourth.isOpen()).isTrue();
    second.finishAndReleaseAll();
    fourth.finishAndReleaseAll();
    assertThat(limit.openConnections()).isZero();
  }
}
