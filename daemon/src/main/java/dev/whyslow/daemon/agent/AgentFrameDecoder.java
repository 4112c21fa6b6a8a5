package dev.whyslow.daemon.agent;

import dev.whyslow.protocol.ErrorCode;
import dev.whyslow.protocol.MessageCodec;
import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.CorruptedFrameException;
import io.netty.handler.codec.LengthFieldBasedFrameDecoder;
import io.netty.handler.codec.TooLongFrameException;
import java.util.List;

/**
 * Splits the byte stream into frame bodies at the 4-byte big-endian length prefix. A prefix above
 * the limit is refused as soon as it is read ({@code FRAME_TOO_LARGE}), before any of the frame is
 * buffered; a connection that ends inside a frame gets {@code MALFORMED_FRAME} naming how much was
 * missing.
 */
public final class AgentFrameDecoder extends LengthFieldBasedFrameDecoder {
  private final int maxFrameBytes;
  private final ErrorReplies errors;

  public AgentFrameDecoder(int maxFrameBytes, ErrorReplies errors) {
    // The limit applies to the body; Netty's limit includes the prefix. failFast: refuse on the
    // prefix alone instead of after skipping the whole oversized frame.
    super(
        maxFrameBytes + MessageCodec.LENGTH_PREFIX_BYTES,
        0,
        MessageCodec.LENGTH_PREFIX_BYTES,
        0,
        MessageCodec.LENGTH_PREFIX_BYTES,
        true);
    this.maxFrameBytes = maxFrameBytes;
    this.errors = errors;
  }

  @Override
  protected Object decode(ChannelHandlerContext ctx, ByteBuf in) throws Exception {
    if (ErrorReplies.closing(ctx.channel())) {
      in.skipBytes(in.readableBytes());
      return null;
    }
    int prefixAt = in.readerIndex();
    long announced =
        in.readableBytes() >= MessageCodec.LENGTH_PREFIX_BYTES ? in.getUnsignedInt(prefixAt) : -1;
    try {
      return super.decode(ctx, in);
    } catch (TooLongFrameException e) {
      in.skipBytes(in.readableBytes());
      errors.fatal(
          ctx.channel(),
          ErrorCode.FRAME_TOO_LARGE,
          "frame of "
              + announced
              + " bytes exceeds this daemon's limit of "
              + maxFrameBytes
              + " bytes (agent.max.frame.bytes); send smaller batches");
      return null;
    } catch (CorruptedFrameException e) {
      in.skipBytes(in.readableBytes());
      errors.fatal(
          ctx.channel(), ErrorCode.MALFORMED_FRAME, "bad frame length prefix: " + e.getMessage());
      return null;
    }
  }

  @Override
  protected void decodeLast(ChannelHandlerContext ctx, ByteBuf in, List<Object> out)
      throws Exception {
    super.decodeLast(ctx, in, out);
    if (in.isReadable() && !ErrorReplies.closing(ctx.channel())) {
      int have = in.readableBytes();
      String what =
          have < MessageCodec.LENGTH_PREFIX_BYTES
              ? have + " of the 4 length-prefix bytes"
              : (have - MessageCodec.LENGTH_PREFIX_BYTES)
                  + " of "
                  + in.getUnsignedInt(in.readerIndex())
                  + " frame bytes";
      in.skipBytes(have);
      errors.fatal(
          ctx.channel(),
          ErrorCode.MALFORMED_FRAME,
          "truncated frame: the agent stopped sending after " + what);
    }
  }
}
