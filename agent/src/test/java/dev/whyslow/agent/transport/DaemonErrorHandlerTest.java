package dev.whyslow.agent.transport;

import static org.assertj.core.api.Assertions.assertThat;

import dev.whyslow.protocol.ErrorCode;
import dev.whyslow.protocol.ErrorMessage;
import dev.whyslow.protocol.HelloOk;
import dev.whyslow.protocol.SetEnabled;
import io.netty.channel.embedded.EmbeddedChannel;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

class DaemonErrorHandlerTest {
  private final RecordingLog log = new RecordingLog();
  private final TransportCounters counters = new TransportCounters();
  private final List<ErrorMessage> refusals = new CopyOnWriteArrayList<>();
  private final EmbeddedChannel channel =
      new EmbeddedChannel(
          new DaemonErrorHandler(
              "daemon:7000",
              300_000,
              counters,
              log.log,
              new ConnectionEvents() {
                @Override
                public void onHandshake(HelloOk ok) {}

                @Override
                public void onRefused(ErrorMessage error) {
                  refusals.add(error);
                }
              }));

  @Test
  void aBadTokenIsReportedWithCodeAndMessageAndAsksForTheLongBackoff() {
    ErrorMessage error =
        new ErrorMessage(ErrorCode.BAD_TOKEN, "token rejected; set whyslow.token", true);

    channel.writeInbound(error);

    assertThat(channel.isOpen()).isFalse();
    assertThat(refusals).containsExactly(error);
    assertThat(log.lines)
        .containsExactly(
            "[whyslow] daemon at daemon:7000 refused the agent: BAD_TOKEN: token rejected; set"
                + " whyslow.token; retrying in 300 s");
    assertThat(counters.lastError).contains("BAD_TOKEN");
  }

  @Test
  void anUnsupportedVersionIsARefusalToo() {
    channel.writeInbound(new ErrorMessage(ErrorCode.UNSUPPORTED_VERSION, "speaks 2", true));

    assertThat(refusals).hasSize(1);
    assertThat(channel.isOpen()).isFalse();
  }

  @Test
  void aFatalErrorThatRetryingCanFixClosesWithoutTheLongBackoff() {
    channel.writeInbound(new ErrorMessage(ErrorCode.TOO_MANY_CONNECTIONS, "limit 100", true));

    assertThat(channel.isOpen()).isFalse();
    assertThat(refusals).isEmpty();
    assertThat(log.count("closed the connection: TOO_MANY_CONNECTIONS: limit 100")).isEqualTo(1);
  }

  @Test
  void aRepeatedNonFatalErrorIsReportedOnceAndCountedEachTime() {
    ErrorMessage error = new ErrorMessage(ErrorCode.UNKNOWN_SITE, "site 0x1 unknown", false);

    channel.writeInbound(error);
    channel.writeInbound(error);

    assertThat(channel.isOpen()).isTrue();
    assertThat(log.lines)
        .containsExactly("[whyslow] daemon at daemon:7000 reported UNKNOWN_SITE: site 0x1 unknown");
    assertThat(counters.errors.sum()).isEqualTo(2);
  }

  @Test
  void otherMessagesPassThrough() {
    channel.writeInbound(new SetEnabled(true));

    assertThat(channel.<Object>readInbound()).isEqualTo(new SetEnabled(true));
    assertThat(log.lines).isEmpty();
  }
}
