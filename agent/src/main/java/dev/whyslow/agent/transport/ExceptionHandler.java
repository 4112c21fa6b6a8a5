package dev.whyslow.agent.transport;

import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.DecoderException;

/**
 * Last in the pipeline: any exception on the connection (reset, garbage or oversized frames) is
 * counted, reported once per kind, and closes the connection so the connector starts afresh.
 */
final class ExceptionHandler extends ChannelInboundHandlerAdapter {
  private final String address;
  private final TransportCounters counters;
  private final OnceLog log;

  ExceptionHandler(String address, TransportCounters counters, OnceLog log) {
    this.address = address;
    this.counters = counters;
    this.log = log;
  }

  @Override
  public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
    // Netty wraps a decoder's unexpected exceptions in a bare DecoderException; show the cause.
    Throwable shown =
        cause.getClass() == DecoderException.class && cause.getCause() != null
            ? cause.getCause()
            : cause;
    String text = "connection to daemon at " + address + " failed: " + describe(shown);
    counters.error(text);
    log.report("exception-" + shown.getClass().getName(), text + "; reconnecting");
    ctx.close();
  }

  static String describe(Throwable t) {
    String message = t.getMessage();
    return message == null || message.isBlank()
        ? t.getClass().getSimpleName()
        : t.getClass().getSimpleName() + ": " + message;
  }
}
