package dev.whyslow.daemon.agent;

import dev.whyslow.protocol.ErrorCode;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandler.Sharable;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.socket.ChannelInputShutdownEvent;
import java.io.IOException;
import java.lang.System.Logger.Level;

/**
 * Last in the agent pipeline: closes a connection the agent stopped sending on (after anything
 * still being written), and turns unexpected exceptions into an {@code INTERNAL} error instead of a
 * silently dead connection.
 */
@Sharable
public final class ConnectionEndHandler extends ChannelInboundHandlerAdapter {
  private static final System.Logger LOG = System.getLogger(ConnectionEndHandler.class.getName());

  private final ErrorReplies errors;

  public ConnectionEndHandler(ErrorReplies errors) {
    this.errors = errors;
  }

  @Override
  public void userEventTriggered(ChannelHandlerContext ctx, Object event) {
    if (event instanceof ChannelInputShutdownEvent) {
      if (!ErrorReplies.closing(ctx.channel())) {
        ctx.writeAndFlush(Unpooled.EMPTY_BUFFER).addListener(ChannelFutureListener.CLOSE);
      }
      return;
    }
    ctx.fireUserEventTriggered(event);
  }

  @Override
  public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
    if (cause instanceof IOException) {
      // The agent went away (reset, broken pipe): nothing to tell it.
      LOG.log(
          Level.DEBUG, "agent connection {0} failed: {1}", ctx.channel().remoteAddress(), cause);
      ctx.close();
      return;
    }
    LOG.log(
        Level.ERROR,
        "unexpected error on agent connection " + ctx.channel().remoteAddress(),
        cause);
    errors.fatal(
        ctx.channel(),
        ErrorCode.INTERNAL,
        "whyslowd hit an internal error (" + cause + "); see the daemon's log");
  }
}
