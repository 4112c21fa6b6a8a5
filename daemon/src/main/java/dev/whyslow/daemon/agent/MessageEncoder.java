package dev.whyslow.daemon.agent;

import dev.whyslow.protocol.Message;
import dev.whyslow.protocol.MessageCodec;
import io.netty.channel.ChannelHandler.Sharable;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.MessageToByteEncoder;

/** Writes daemon-to-agent messages as length-prefixed frames ({@link MessageCodec#encodeFrame}). */
@Sharable
public final class MessageEncoder extends MessageToByteEncoder<Message> {
  public MessageEncoder() {
    super(Message.class);
  }

  @Override
  protected void encode(ChannelHandlerContext ctx, Message message, io.netty.buffer.ByteBuf out) {
    out.writeBytes(MessageCodec.encodeFrame(message));
  }
}
