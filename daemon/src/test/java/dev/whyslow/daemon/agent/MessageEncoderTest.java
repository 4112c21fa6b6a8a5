package dev.whyslow.daemon.agent;

import static org.assertj.core.api.Assertions.assertThat;

import dev.whyslow.protocol.MessageCodec;
import dev.whyslow.protocol.SetSamplingRate;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.channel.embedded.EmbeddedChannel;
import org.junit.jupiter.api.Test;

class MessageEncoderTest {
  @Test
  void commandsGoOutAsLengthPrefixedFrames() {
    EmbeddedChannel channel = new EmbeddedChannel(new MessageEncoder());
    channel.writeOutbound(new SetSamplingRate(0.001));
    ByteBuf frame = channel.readOutbound();
    assertThat(ByteBufUtil.getBytes(frame))
        .isEqualTo(MessageCodec.encodeFrame(new SetSamplingRate(0.001)));
    frame.release();
    assertThat(channel.finish()).isFalse();
  }
}
