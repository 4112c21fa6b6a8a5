package dev.whyslow.daemon.agent;

import dev.whyslow.protocol.ErrorCode;
import io.netty.channel.ChannelHandler.Sharable;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.util.AttributeKey;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Caps concurrent agent connections ({@code agent.max.connections}). One instance is shared by all
 * channels; a connection over the cap is told {@code TOO_MANY_CONNECTIONS} and closed, so an agent
 * backs off instead of silently hanging.
 */
@Sharable
public final class ConnectionLimitHandler extends ChannelInboundHandlerAdapter {
  private static final AttributeKey<Boolean> COUNTED = AttributeKey.valueOf("whyslow.counted");

  private final int maxConnections;
  private final ErrorReplies errors;
  private final AtomicInteger open = new AtomicInteger();

  public ConnectionLimitHandler(int maxConnections, ErrorReplies errors) {
    this.maxConnections = maxConnections;
    this.errors = errors;
  }

  @Override
  public void channelActive(ChannelHandlerContext ctx) {
    int now = open.incrementAndGet();
    ctx.channel().attr(COUNTED).set(Boolean.TRUE);
    if (now > maxConnections) {
      errors.fatal(
          ctx.channel(),
          ErrorCode.TOO_MANY_CONNECTIONS,
          "this daemon already serves "
              + maxConnections
              + " agent connections (agent.max.connections); retry later or raise the limit");
      return;
    }
    ctx.fireChannelActive();
  }

  @Override
  public void channelInactive(ChannelHandlerContext ctx) {
    if (ctx.channel().attr(COUNTED).getAndSet(null) != null) {
      open.decrementAndGet();
    }
    ctx.fireChannelInactive();
  }

  /** Open agent connections, including those being refused right now. */
  public int openConnections() {
    return open.get();
  }
}
