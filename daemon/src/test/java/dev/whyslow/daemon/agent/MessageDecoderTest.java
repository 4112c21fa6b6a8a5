package dev.whyslow.daemon.agent;

import static org.assertj.core.api.Assertions.assertThat;

import dev.whyslow.daemon.TestData;
import dev.whyslow.daemon.metrics.DaemonMetrics;
import dev.whyslow.protocol.ErrorCode;
import dev.whyslow.protocol.ErrorMessage;
import dev.whyslow.protocol.Message;
import dev.whyslow.protocol.MessageCodec;
import dev.whyslow.protocol.RunBatch;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class MessageDecoderTest {
  private final DaemonMetrics metrics = new DaemonMetrics("test");
  private final EmbeddedChannel channel =
      new EmbeddedChannel(
          new MessageEncoder(),
          new AgentFrameDecoder(1 << 20, new ErrorReplies(metrics)),
          new MessageDecoder(new ErrorReplies(metrics), metrics));

  @AfterEach
  void close() {
    channel.finishAndReleaseAll();
    metrics.close();
  }

  private Message readReply() throws Exception {
    ByteBuf frame = channel.readOutbound();
    try {
      return MessageCodec.decode(ByteBufUtil.getBytes(frame, 4, frame.readableBytes() - 4));
    } finally {
      frame.release();
    }
  }

  @Test
  void validFramesBecomeMessagesAndAreCountedByType() {
    RunBatch batch = new RunBatch(List.of(TestData.run(1, 1_700_000_000_000L)));
    channel.writeInbound(Unpooled.wrappedBuffer(MessageCodec.encodeFrame(TestData.hello())));
    channel.writeInbound(Unpooled.wrappedBuffer(MessageCodec.encodeFrame(batch)));

    assertThat(channel.<Object>readInbound()).isEqualTo(TestData.hello());
    assertThat(channel.<Object>readInbound()).isEqualTo(batch);
    assertThat(metrics.scrape())
        .contains("whyslow_ingest_frames_total{type=\"hello\",} 1.0")
        .contains("whyslow_ingest_frames_total{type=\"runs\",} 1.0");
  }

  @Test
  void garbageIsAnsweredWithMalformedFrameSayingWhatWasWrongAndClosed() throws Exception {
    channel.writeInbound(Unpooled.wrappedBuffer(new byte[] {0, 0, 0, 3, 99, 1, 2}));

    ErrorMessage error = (ErrorMessage) readReply();
    assertThat(error.code()).isEqualTo(ErrorCode.MALFORMED_FRAME);
    assertThat(error.message()).contains("unknown message type 99");
    assertThat(error.fatal()).isTrue();
    assertThat(channel.isOpen()).isFalse();
    assertThat(channel.<Object>readInbound()).isNull();
  }

  @Test
  void framesQueuedBehindGarbageAreNotDelivered() throws Exception {
    ByteBuf both = Unpooled.buffer();
    both.writeBytes(new byte[] {0, 0, 0, 1, 99});
    both.writeBytes(MessageCodec.encodeFrame(TestData.hello()));
    channel.writeInbound(both);

    assertThat(readReply()).isInstanceOf(ErrorMessage.class);
    assertThat(channel.<Object>readInbound()).isNull();
  }

  @Test
  void emptyFrameIsMalformed() throws Exception {
    channel.writeInbound(Unpooled.wrappedBuffer(new byte[] {0, 0, 0, 0}));
    ErrorMessage error = (ErrorMessage) readReply();
    assertThat(error.code()).isEqualTo(ErrorCode.MALFORMED_FRAME);
    assertThat(error.message()).contains("truncated");
  }
}
