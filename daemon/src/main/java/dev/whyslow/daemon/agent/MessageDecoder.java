package dev.whyslow.daemon.agent;

import dev.whyslow.daemon.metrics.DaemonMetrics;
import dev.whyslow.protocol.AgentStats;
import dev.whyslow.protocol.ErrorCode;
import dev.whyslow.protocol.Hello;
import dev.whyslow.protocol.MalformedMessageException;
import dev.whyslow.protocol.Message;
import dev.whyslow.protocol.MessageCodec;
import dev.whyslow.protocol.RunBatch;
import dev.whyslow.protocol.SiteBatch;
import dev.whyslow.protocol.UnitStats;
import dev.whyslow.protocol.UnitTypeBatch;
import dev.whyslow.protocol.ViolationBatch;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.MessageToMessageDecoder;
import java.util.List;

/**
 * Turns one frame body into a {@link Message}. A body that does not decode is answered with {@code
 * MALFORMED_FRAME} and the codec's own words for what was wrong, and the connection is closed: the
 * stream cannot be trusted after it.
 */
public final class MessageDecoder extends MessageToMessageDecoder<ByteBuf> {
  private final ErrorReplies errors;
  private final DaemonMetrics metrics;

  public MessageDecoder(ErrorReplies errors, DaemonMetrics metrics) {
    super(ByteBuf.class);
    this.errors = errors;
    this.metrics = metrics;
  }

  @Override
  protected void decode(ChannelHandlerContext ctx, ByteBuf body, List<Object> out) {
    if (ErrorReplies.closing(ctx.channel())) {
      return;
    }
    Message message;
    try {
      message = MessageCodec.decode(ByteBufUtil.getBytes(body));
    } catch (MalformedMessageException e) {
      errors.fatal(ctx.channel(), ErrorCode.MALFORMED_FRAME, "malformed frame: " + e.getMessage());
      return;
    }
    metrics.frameReceived(frameType(message));
    out.add(message);
  }

  static String frameType(Message message) {
    if (message instanceof Hello) {
      return "hello";
    } else if (message instanceof SiteBatch) {
      return "sites";
    } else if (message instanceof RunBatch) {
      return "runs";
    } else if (message instanceof AgentStats) {
      return "agent_stats";
    } else if (message instanceof UnitStats) {
      return "unit_stats";
    } else if (message instanceof ViolationBatch) {
      return "violations";
    } else if (message instanceof UnitTypeBatch) {
      return "unit_types";
    }
    return "other";
  }
}
