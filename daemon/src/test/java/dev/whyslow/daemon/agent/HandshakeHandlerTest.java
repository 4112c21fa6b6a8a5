package dev.whyslow.daemon.agent;

import static org.assertj.core.api.Assertions.assertThat;

import dev.whyslow.daemon.TestData;
import dev.whyslow.daemon.metrics.DaemonMetrics;
import dev.whyslow.protocol.ErrorCode;
import dev.whyslow.protocol.ErrorMessage;
import dev.whyslow.protocol.Hello;
import dev.whyslow.protocol.HelloOk;
import dev.whyslow.protocol.MessageCodec;
import dev.whyslow.protocol.RunBatch;
import io.netty.channel.embedded.EmbeddedChannel;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class HandshakeHandlerTest {
  private static final Instant NOW = Instant.parse("2024-06-10T06:13:20Z");

  private final DaemonMetrics metrics = new DaemonMetrics("test");
  private final AgentRegistry registry = new AgentRegistry();
  private EmbeddedChannel channel;

  @AfterEach
  void close() {
    if (channel != null) {
      channel.finishAndReleaseAll();
    }
    metrics.close();
  }

  private EmbeddedChannel channel(String token) {
    channel = EmbeddedChannel.builder().register(false).build();
    channel
        .pipeline()
        .addLast(
            "handshake",
            new HandshakeHandler(
                token,
                "9.9.9",
                4096,
                Duration.ofSeconds(10),
                registry,
                new ErrorReplies(metrics),
                Clock.fixed(NOW, ZoneOffset.UTC)));
    try {
      channel.register();
      channel.freezeTime();
    } catch (Exception e) {
      throw new AssertionError(e);
    }
    return channel;
  }

  @Test
  void helloIsAnsweredWithVersionAndFrameLimitAndTheAgentRegistered() {
    channel("s3cret").writeInbound(TestData.hello("host-a:1", "1.0", "s3cret"));

    assertThat(channel.<Object>readOutbound()).isEqualTo(new HelloOk("9.9.9", 4096));
    assertThat(channel.pipeline().get("handshake")).isNull();
    assertThat(registry.agents()).hasSize(1);
    ConnectedAgent agent = registry.agents().get(0).agent();
    assertThat(agent.service()).isEqualTo("checkout");
    assertThat(agent.origin().instance()).isEqualTo("host-a:1");
    assertThat(agent.connectedAt()).isEqualTo(NOW);
    assertThat(AgentRegistry.agentOf(channel)).contains(agent);
  }

  @Test
  void wrongTokenIsRefusedWithoutEchoingIt() {
    channel("s3cret").writeInbound(TestData.hello("host-a:1", "1.0", "guess-123"));

    ErrorMessage error = channel.readOutbound();
    assertThat(error.code()).isEqualTo(ErrorCode.BAD_TOKEN);
    assertThat(error.fatal()).isTrue();
    assertThat(error.message())
        .contains("checkout")
        .doesNotContain("guess-123")
        .doesNotContain("s3cret");
    assertThat(channel.isOpen()).isFalse();
    assertThat(registry.size()).isZero();
    assertThat(metrics.scrape())
        .contains("whyslow_ingest_rejected_total{reason=\"bad_token\",} 1.0");
  }

  @Test
  void missingTokenIsRefusedWhenOneIsRequired() {
    channel("s3cret").writeInbound(TestData.hello());
    ErrorMessage error = channel.readOutbound();
    assertThat(error.code()).isEqualTo(ErrorCode.BAD_TOKEN);
    assertThat(error.message()).startsWith("no token given");
  }

  @Test
  void anyTokenIsAcceptedWhenNoneIsConfigured() {
    channel("").writeInbound(TestData.hello("host-a:1", "1.0", "whatever"));
    assertThat(channel.<Object>readOutbound()).isInstanceOf(HelloOk.class);
  }

  @Test
  void otherProtocolVersionIsRefused() {
    channel("").writeInbound(new Hello(99, "checkout", "host-a:1", "1.0", "0.1.0", ""));
    ErrorMessage error = channel.readOutbound();
    assertThat(error.code()).isEqualTo(ErrorCode.UNSUPPORTED_VERSION);
    assertThat(error.message())
        .contains("protocol version 99")
        .contains("speaks version " + MessageCodec.PROTOCOL_VERSION);
    assertThat(channel.isOpen()).isFalse();
  }

  @Test
  void runsBeforeHelloAreRefused() {
    channel("").writeInbound(new RunBatch(List.of(TestData.run(1, 1_700_000_000_000L))));
    ErrorMessage error = channel.readOutbound();
    assertThat(error.code()).isEqualTo(ErrorCode.HANDSHAKE_REQUIRED);
    assertThat(error.message()).contains("got runs");
    assertThat(channel.isOpen()).isFalse();
  }

  @Test
  void helloWithoutServiceIsRefused() {
    channel("")
        .writeInbound(
            new Hello(MessageCodec.PROTOCOL_VERSION, " ", "host-a:1", "1.0", "0.1.0", ""));
    ErrorMessage error = channel.readOutbound();
    assertThat(error.code()).isEqualTo(ErrorCode.INVALID_MESSAGE);
    assertThat(error.message()).contains("must name a service");
  }

  @Test
  void silentConnectionIsClosedAfterTheTimeout() {
    channel("");
    channel.advanceTimeBy(9, TimeUnit.SECONDS);
    channel.runScheduledPendingTasks();
    assertThat(channel.isOpen()).isTrue();

    channel.advanceTimeBy(2, TimeUnit.SECONDS);
    channel.runScheduledPendingTasks();
    ErrorMessage error = channel.readOutbound();
    assertThat(error.code()).isEqualTo(ErrorCode.HANDSHAKE_REQUIRED);
    assertThat(error.message()).contains("no hello within 10 s");
    assertThat(channel.isOpen()).isFalse();
  }
}
