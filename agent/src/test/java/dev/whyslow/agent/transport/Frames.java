package dev.whyslow.agent.transport;

import dev.whyslow.protocol.Message;
import dev.whyslow.protocol.MessageCodec;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import java.io.ByteArrayOutputStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/** Bytes in and out of {@link EmbeddedChannel}s, releasing every buffer it reads. */
final class Frames {
  private Frames() {}

  static ByteBuf frame(Message message) {
    return Unpooled.wrappedBuffer(MessageCodec.encodeFrame(message));
  }

  /** Everything written so far, as one byte array; each outbound buffer is released. */
  static byte[] outboundBytes(EmbeddedChannel channel) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    for (Object o; (o = channel.readOutbound()) != null; ) {
      ByteBuf buf = (ByteBuf) o;
      try {
        byte[] bytes = new byte[buf.readableBytes()];
        buf.readBytes(bytes);
        out.writeBytes(bytes);
      } finally {
        buf.release();
      }
    }
    return out.toByteArray();
  }

  /** Splits length-prefixed bytes into decoded messages. */
  static List<Message> decodeFrames(byte[] bytes) throws Exception {
    List<Message> messages = new ArrayList<>();
    int at = 0;
    while (at < bytes.length) {
      int length =
          ((bytes[at] & 0xFF) << 24)
              | ((bytes[at + 1] & 0xFF) << 16)
              | ((bytes[at + 2] & 0xFF) << 8)
              | (bytes[at + 3] & 0xFF);
      at += 4;
      messages.add(MessageCodec.decode(Arrays.copyOfRange(bytes, at, at + length)));
      at += length;
    }
    return messages;
  }

  /** Messages (not buffers) written to a channel without an encoder. */
  static List<Object> outboundMessages(EmbeddedChannel channel) {
    List<Object> messages = new ArrayList<>();
    for (Object o; (o = channel.readOutbound()) != null; ) {
      messages.add(o);
    }
    return messages;
  }
}
