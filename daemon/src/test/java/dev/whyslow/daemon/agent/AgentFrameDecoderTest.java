package dev.whyslow.daemon.agent;

import static org.assertj.core.api.Assertions.assertThat;

import dev.whyslow.daemon.metrics.DaemonMetrics;
import dev.whyslow.protocol.ErrorCode;
import dev.whyslow.protocol.ErrorMessage;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.channel.socket.ChannelInputShutdownEvent;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class AgentFrameDecoderTest {
  private final DaemonMetrics metrics = new DaemonMetrics("test");
  private final EmbeddedChannel channel =
      new EmbeddedChannel(new AgentFrameDecoder(1024, new ErrorReplies(metrics)));

  @AfterEach
  void close() {
    channel.finishAndReleaseAll();
    metrics.close();
  }

  private static ByteBuf frame(int declaredLength, int bodyBytes) {
    ByteBuf buf = Unpooled.buffer();
    buf.writeInt(declaredLength);
    for (int i = 0; i < bodyBytes; i++) {
      buf.writeByte(i);
    }
    return buf;
  }

  @Test
  void framesSplitAcrossReadsAreReassembledWithoutThePrefix() {
    ByteBuf both = Unpooled.buffer();
    both.writeBytes(frame(3, 3)).writeBytes(frame(2, 2));
    channel.writeInbound(both.readRetainedSlice(5));
    assertThat(channel.<Object>readInbound()).isNull();
    channel.writeInbound(both.readRetainedSlice(both.readableBytes()));
    both.release();

    ByteBuf first = channel.readInbound();
    ByteBuf second = channel.readInbound();
    assertThat(first.readableBytes()).isEqualTo(3);
    assertThat(second.readableBytes()).isEqualTo(2);
    first.release();
    second.release();
    assertThat(channel.isOpen()).isTrue();
  }

  @Test
  void aFrameAtTheLimitPasses() {
    channel.writeInbound(frame(1024, 1024));
    ByteBuf body = channel.readInbound();
    assertThat(body.readableBytes()).isEqualTo(1024);
    body.release();
  }

  @Test
  void oversizedLengthPrefixIsRefusedAtOnceAndTheConnectionClosed() {
    // Only the prefix and a few bytes arrive: the refusal must not wait for 2 GiB.
    channel.writeInbound(frame(Integer.MAX_VALUE, 8));

    ErrorMessage error = channel.readOutbound();
    assertThat(error.code()).isEqualTo(ErrorCode.FRAME_TOO_LARGE);
    assertThat(error.fatal()).isTrue();
    assertThat(error.message())
        .contains("2147483647")
        .contains("1024")
        .contains("agent.max.frame.bytes");
    assertThat(channel.<Object>readInbound()).isNull();
    assertThat(channel.isOpen()).isFalse();
    assertThat(metrics.scrape())
        .contains("whyslow_ingest_rejected_total{reason=\"frame_too_large\",} 1.0");
  }

  @Test
  void unsignedLengthAboveTwoGibIsTooLargeNotNegative() {
    channel.writeInbound(frame(0xFFFFFFFF, 0));
    ErrorMessage error = channel.readOutbound();
    assertThat(error.code()).isEqualTo(ErrorCode.FRAME_TOO_LARGE);
    assertThat(error.message()).contains("4294967295");
  }

  @Test
  void streamEndingInsideAFrameIsReportedAsTruncated() {
    channel.writeInbound(frame(100, 10));
    channel.pipeline().fireUserEventTriggered(ChannelInputShutdownEvent.INSTANCE);

    ErrorMessage error = channel.readOutbound();
    assertThat(error.code()).isEqualTo(ErrorCode.MALFORMED_FRAME);
    assertThat(error.message()).contains("truncated").contains("10 of 100 frame bytes");
    assertThat(error.fatal()).isTrue();
  }

  @Test
  void streamEndingInsideThePrefixIsReportedAsTruncated() {
    channel.writeInbound(Unpooled.wrappedBuffer(new byte[] {0, 0}));
    channel.pipeline().fireUserEventTriggered(ChannelInputShutdownEvent.INSTANCE);

    ErrorMessage error = channel.readOutbound();
    assertThat(error.message()).contains("2 of the 4 length-prefix bytes");
  }

  @Test
  void framesBehindAnOversizedOneInTheSameReadAreIgnored() {
    ByteBuf both = frame(Integer.MAX_VALUE, 0).writeBytes(frame(3, 3));
    channel.writeInbound(both);
    assertThat(channel.<Object>readOutbound()).isInstanceOf(ErrorMessage.class);
    assertThat(channel.<Object>readInbound()).isNull();
  }
}
