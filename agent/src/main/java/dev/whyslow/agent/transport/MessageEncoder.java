package dev.whyslow.agent.transport;

import dev.whyslow.protocol.Message;
import dev.whyslow.protocol.MessageCodec;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.EncoderException;
import io.netty.handler.codec.MessageToMessageEncoder;
import java.util.List;

/**
 * Turns a protocol message into a frame body; the length prefix is added after it. A body larger
 * than the frame limit fails the write (the sender cuts batches below it, so this is a last guard).
 */
final class MessageEncoder extends MessageToMessageEncoder<Message> {
  private final int maxFrameBytes;

  MessageEncoder(int maxFrameBytes) {
    super(Message.class);
    this.maxFrameBytes = maxFrameBytes;
  }

  @Override
  protected void encode(ChannelHandlerContext ctx, Message message, List<Object> out) {
    byte[] body = MessageCodec.encode(message);
    if (body.length > maxFrameBytes) {
      throw new EncoderException(
          message.getClass().getSimpleName()
              + " frame is "
              + body.length
              + " bytes, over the limit of "
              + maxFrameBytes
              + " bytes; not sent");
    }
    out.add(Unpooled.wrappedBuffer(body));
  }
}
