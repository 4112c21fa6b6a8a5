package dev.whyslow.agent.transport;

import dev.whyslow.protocol.ErrorMessage;
import dev.whyslow.protocol.Hello;
import dev.whyslow.protocol.HelloOk;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * Sends {@code Hello} when the connection opens and waits for {@code HelloOk}; then fires {@link
 * HandshakeCompleted} and lets everything through. Error messages pass on to {@link
 * DaemonErrorHandler}; anything else before {@code HelloOk}, or no answer in time, closes the
 * connection (the peer is not a whyslowd that accepts us).
 */
final class HandshakeHandler extends ChannelInboundHandlerAdapter {
  static final long DEFAULT_TIMEOUT_MILLIS = 10_000;

  private final Hello hello;
  private final long timeoutMillis;
  private final String address;
  private final TransportCounters counters;
  private final OnceLog log;
  private final ConnectionEvents events;
  private boolean done;
  private ScheduledFuture<?> timeout;

  HandshakeHandler(
      Hello hello,
      long timeoutMillis,
      String address,
      TransportCounters counters,
      OnceLog log,
      ConnectionEvents events) {
    this.hello = hello;
    this.timeoutMillis = timeoutMillis;
    this.address = address;
    this.counters = counters;
    this.log = log;
    this.events = events;
  }

  boolean isDone() {
    return done;
  }

  @Override
  public void channelActive(ChannelHandlerContext ctx) {
    ctx.writeAndFlush(hello).addListener(ChannelFutureListener.FIRE_EXCEPTION_ON_FAILURE);
    timeout = ctx.executor().schedule(() -> timedOut(ctx), timeoutMillis, TimeUnit.MILLISECONDS);
    ctx.fireChannelActive();
  }

  @Override
  public void channelRead(ChannelHandlerContext ctx, Object msg) {
    if (done || msg instanceof ErrorMessage) {
      ctx.fireChannelRead(msg);
    } else if (msg instanceof HelloOk ok) {
      done = true;
      cancelTimeout();
      events.onHandshake(ok);
      ctx.fireUserEventTriggered(new HandshakeCompleted(ok));
    } else {
      String text =
          "daemon at "
              + address
              + " sent "
              + msg.getClass().getSimpleName()
              + " before accepting the handshake; is this whyslowd's agent port? reconnecting";
      counters.error(text);
      log.report("handshake-unexpected", text);
      ctx.close();
    }
  }

  @Override
  public void channelInactive(ChannelHandlerContext ctx) {
    cancelTimeout();
    ctx.fireChannelInactive();
  }

  @Override
  public void handlerRemoved(ChannelHandlerContext ctx) {
    cancelTimeout();
  }

  private void timedOut(ChannelHandlerContext ctx) {
    if (done || !ctx.channel().isActive()) {
      return;
    }
    String text =
        "daemon at "
            + address
            + " did not answer the handshake within "
            + timeoutMillis
            + " ms; is this whyslowd's agent port? reconnecting";
    counters.error(text);
    log.report("handshake-timeout", text);
    ctx.close();
  }

  private void cancelTimeout() {
    if (timeout != null) {
      timeout.cancel(false);
      timeout = null;
    }
  }
}
