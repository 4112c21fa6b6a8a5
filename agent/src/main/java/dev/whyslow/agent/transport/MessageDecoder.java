package dev.whyslow.agent.transport;

import dev.whyslow.protocol.MalformedMessageException;
import dev.whyslow.protocol.MessageCodec;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.CorruptedFrameException;
import io.netty.handler.codec.MessageToMessageDecoder;
import java.util.List;

/** Turns one frame body (length prefix already stripped) into a protocol message. */
final class MessageDecoder extends MessageToMessageDecoder<ByteBuf> {
  MessageDecoder() {
    super(ByteBuf.class);
  }

  @Override
  protected void decode(ChannelHandlerContext ctx, ByteBuf frame, List<Object> out) {
    byte[] body = ByteBufUtil.getBytes(frame);
    try {
      out.add(MessageCodec.decode(body));
    } catch (MalformedMessageException e) {
      throw new CorruptedFrameException("malformed frame from the daemon: " + e.getMessage(), e);
    }
  }
}
