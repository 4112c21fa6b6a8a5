package dev.whyslow.agent.transport;

import static org.assertj.core.api.Assertions.assertThat;

import dev.whyslow.protocol.ErrorCode;
import dev.whyslow.protocol.ErrorMessage;
import dev.whyslow.protocol.HelloOk;
import dev.whyslow.protocol.SetEnabled;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.embedded.EmbeddedChannel;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class HandshakeHandlerTest {
  private final RecordingLog log = new RecordingLog();
  private final TransportCounters counters = new TransportCounters();
  private final List<HelloOk> handshakes = new CopyOnWriteArrayList<>();
  private final List<Object> events = new CopyOnWriteArrayList<>();
  private final HandshakeHandler handshake =
      new HandshakeHandler(
          TestData.HELLO,
          500,
          "daemon:7000",
          counters,
          log.log,
          new ConnectionEvents() {
            @Override
            public void onHandshake(HelloOk ok) {
              handshakes.add(ok);
            }

            @Override
            public void onRefused(ErrorMessage error) {}
          });
  private final EmbeddedChannel channel = new EmbeddedChannel();

  @BeforeEach
  void connect() {
    // The timeout is scheduled when the connection opens; a frozen clock makes advanceTimeBy exact.
    channel.freezeTime();
    channel
        .pipeline()
        .addLast(
            handshake,
            new ChannelInboundHandlerAdapter() {
              @Override
              public void userEventTriggered(ChannelHandlerContext ctx, Object evt) {
                events.add(evt);
              }
            });
    channel.pipeline().fireChannelActive();
  }

  @Test
  void helloIsTheFirstThingSentOnANewConnection() {
    assertThat(Frames.outboundMessages(channel)).containsExactly(TestData.HELLO);
    assertThat(handshake.isDone()).isFalse();
  }

  @Test
  void helloOkCompletesTheHandshakeAndLetsMessagesThrough() {
    HelloOk ok = new HelloOk("1.0", 4096);

    channel.writeInbound(ok);
    channel.writeInbound(new SetEnabled(false));

    assertThat(handshake.isDone()).isTrue();
    assertThat(handshakes).containsExactly(ok);
    assertThat(events).containsExactly(new HandshakeCompleted(ok));
    assertThat(channel.<Object>readInbound()).isEqualTo(new SetEnabled(false));
    assertThat(channel.isOpen()).isTrue();
  }

  @Test
  void anErrorBeforeHelloOkPassesOnToTheErrorHandler() {
    ErrorMessage error = new ErrorMessage(ErrorCode.BAD_TOKEN, "bad token", true);

    channel.writeInbound(error);

    assertThat(channel.<Object>readInbound()).isEqualTo(error);
    assertThat(handshake.isDone()).isFalse();
  }

  @Test
  void anyOtherMessageBeforeHelloOkClosesTheConnection() {
    channel.writeInbound(new SetEnabled(true));

    assertThat(channel.isOpen()).isFalse();
    assertThat(channel.<Object>readInbound()).isNull();
    assertThat(counters.errors.sum()).isEqualTo(1);
    assertThat(log.lines)
        .containsExactly(
            "[whyslow] daemon at daemon:7000 sent SetEnabled before accepting the handshake; is"
                + " this whyslowd's agent port? reconnecting");
  }

  @Test
  void noAnswerWithinTheTimeoutClosesTheConnection() {
    channel.advanceTimeBy(499, TimeUnit.MILLISECONDS);
    channel.runPendingTasks();
    assertThat(channel.isOpen()).isTrue();

    channel.advanceTimeBy(1, TimeUnit.MILLISECONDS);
    channel.runPendingTasks();

    assertThat(channel.isOpen()).isFalse();
    assertThat(log.count("did not answer the handshake within 500 ms")).isEqualTo(1);
    assertThat(counters.lastError).contains("daemon:7000");
  }

  @Test
  void anAnswerInTimeCancelsTheTimeout() {
    channel.writeInbound(new HelloOk("1.0", 4096));

    channel.advanceTimeBy(1, TimeUnit.SECONDS);
    channel.runPendingTasks();

    assertThat(channel.isOpen()).isTrue();
    assertThat(log.lines).isEmpty();
  }
}
