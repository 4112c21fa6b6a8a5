package dev.whyslow.agent.transport;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.whyslow.protocol.HelloOk;
import dev.whyslow.protocol.MessageCodec;
import dev.whyslow.protocol.RunBatch;
import dev.whyslow.protocol.SetEnabled;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelFuture;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.CorruptedFrameException;
import io.netty.handler.codec.EncoderException;
import io.netty.handler.codec.LengthFieldBasedFrameDecoder;
import io.netty.handler.codec.LengthFieldPrepender;
import io.netty.handler.codec.TooLongFrameException;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The framing and message codec handlers, assembled as {@link TransportInitializer} does. */
class FrameCodecTest {
  private static final int MAX_FRAME = 1024;

  private final EmbeddedChannel channel =
      new EmbeddedChannel(
          new LengthFieldBasedFrameDecoder(MAX_FRAME + 4, 0, 4, 0, 4),
          new LengthFieldPrepender(4),
          new MessageDecoder(),
          new MessageEncoder(MAX_FRAME));

  @AfterEach
  void nothingLeftBehind() {
    assertThat(channel.finishAndReleaseAll()).isFalse();
  }

  @Test
  void aMessageGoesOutAsLengthPrefixThenCodecBody() {
    channel.writeOutbound(new SetEnabled(true));

    assertThat(Frames.outboundBytes(channel))
        .isEqualTo(MessageCodec.encodeFrame(new SetEnabled(true)));
  }

  @Test
  void aFrameSplitAcrossReadsDecodesOnceComplete() {
    byte[] frame = MessageCodec.encodeFrame(new HelloOk("1.0", 4096));
    ByteBuf first = Unpooled.wrappedBuffer(frame, 0, 2);
    ByteBuf second = Unpooled.wrappedBuffer(frame, 2, 5);
    ByteBuf third = Unpooled.wrappedBuffer(frame, 7, frame.length - 7);

    assertThat(channel.writeInbound(first)).isFalse();
    assertThat(channel.writeInbound(second)).isFalse();
    assertThat(channel.writeInbound(third)).isTrue();

    assertThat(channel.<Object>readInbound()).isEqualTo(new HelloOk("1.0", 4096));
    assertThat(List.of(first, second, third)).allSatisfy(b -> assertThat(b.refCnt()).isZero());
  }

  @Test
  void aGarbageFrameFailsWithWhatWasWrongAndIsReleased() {
    ByteBuf garbage = Unpooled.wrappedBuffer(new byte[] {0, 0, 0, 1, 99});

    assertThatThrownBy(() -> channel.writeInbound(garbage))
        .isInstanceOf(CorruptedFrameException.class)
        .hasMessageContaining("malformed frame from the daemon: unknown message type 99");
    assertThat(garbage.refCnt()).isZero();
  }

  @Test
  void aTruncatedBodyIsMalformed() {
    byte[] frame = MessageCodec.encodeFrame(new HelloOk("1.0", 4096));
    frame[3] = (byte) (frame[3] - 1); // claim one byte less than the body has
    ByteBuf truncated = Unpooled.wrappedBuffer(frame, 0, frame.length - 1);

    assertThatThrownBy(() -> channel.writeInbound(truncated))
        .isInstanceOf(CorruptedFrameException.class)
        .hasMessageContaining("malformed frame from the daemon: max frame bytes");
  }

  @Test
  void aFrameLengthOverTheLimitIsRefusedBeforeItsBodyArrives() {
    ByteBuf header = Unpooled.buffer(4).writeInt(MAX_FRAME + 1);

    assertThatThrownBy(() -> channel.writeInbound(header))
        .isInstanceOf(TooLongFrameException.class);
  }

  @Test
  void theEncoderRefusesABodyOverTheLimitAndWritesNothing() {
    ChannelFuture write = channel.writeOneOutbound(new RunBatch(List.of(TestData.run(1, 200))));
    channel.flushOutbound();

    assertThat(write.cause())
        .isInstanceOf(EncoderException.class)
        .hasMessageContaining("over the limit of 1024 bytes");
    assertThat(channel.<Object>readOutbound()).isNull();
  }
}
