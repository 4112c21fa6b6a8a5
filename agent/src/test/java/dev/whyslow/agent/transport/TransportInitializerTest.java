package dev.whyslow.agent.transport;

import static org.assertj.core.api.Assertions.assertThat;

import dev.whyslow.protocol.HelloOk;
import dev.whyslow.protocol.Message;
import dev.whyslow.protocol.MessageCodec;
import dev.whyslow.protocol.RunBatch;
import dev.whyslow.protocol.SetSamplingRate;
import dev.whyslow.protocol.SiteBatch;
import io.netty.channel.embedded.EmbeddedChannel;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

/** The whole pipeline on an {@link EmbeddedChannel}: bytes in, bytes out. */
class TransportInitializerTest {
  private final TransportSettings settings = TestData.settings(7000);
  private final Outbox outbox = new Outbox(100, 10);
  private final TransportCounters counters = new TransportCounters();
  private final RecordingLog log = new RecordingLog();
  private final List<Double> rates = new CopyOnWriteArrayList<>();
  private final EmbeddedChannel channel =
      new EmbeddedChannel(
          new TransportInitializer(
              settings,
              outbox,
              counters,
              log.log,
              new CommandListener() {
                @Override
                public void onSamplingRate(double rate) {
                  rates.add(rate);
                }

                @Override
                public void onEnabled(boolean enabled) {}
              },
              () -> null,
              ConnectionEvents.NOOP,
              5_000));

  @Test
  void thePipelineHasOneHandlerPerConcernInOrder() {
    assertThat(channel.pipeline().names())
        .startsWith(
            "bytes",
            "frameDecoder",
            "framePrepender",
            "messageDecoder",
            "messageEncoder",
            "handshake",
            "errors",
            "commands",
            "sender",
            "exceptions");
    assertThat(channel.config().getWriteBufferHighWaterMark()).isEqualTo(1024 * 1024);
    channel.finishAndReleaseAll();
  }

  @Test
  void theConnectionSpeaksTheWireFormatFromHelloToRuns() throws Exception {
    byte[] hello = Frames.outboundBytes(channel);
    assertThat(hello).isEqualTo(MessageCodec.encodeFrame(TestData.HELLO));

    outbox.addSites(TestData.sites(1, 2));
    outbox.offer(TestData.run(1));
    channel.writeInbound(Frames.frame(new HelloOk("1.0", 1 << 20)));
    byte[] sent = Frames.outboundBytes(channel);

    List<Message> messages = Frames.decodeFrames(sent);
    assertThat(messages)
        .containsExactly(
            new SiteBatch(TestData.sites(1, 2)), new RunBatch(List.of(TestData.run(1))));
    assertThat(counters.bytesSent.sum()).isEqualTo(hello.length + sent.length);
    assertThat(counters.runsSent.sum()).isEqualTo(1);

    channel.writeInbound(Frames.frame(new SetSamplingRate(0.25)));
    assertThat(rates).containsExactly(0.25);
    assertThat(channel.finishAndReleaseAll()).isFalse();
  }

  @Test
  void aGarbageFrameIsReportedAndClosesTheConnection() {
    Frames.outboundBytes(channel);

    channel.writeInbound(io.netty.buffer.Unpooled.wrappedBuffer(new byte[] {0, 0, 0, 1, 42}));

    assertThat(channel.isOpen()).isFalse();
    assertThat(log.lines)
        .containsExactly(
            "[whyslow] connection to daemon at 127.0.0.1:7000 failed: CorruptedFrameException:"
                + " malformed frame from the daemon: unknown message type 42; reconnecting");
    channel.finishAndReleaseAll();
  }
}
