package dev.whyslow.agent.transport;

import dev.whyslow.protocol.ErrorCode;
import dev.whyslow.protocol.ErrorMessage;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;

/**
 * Reports the daemon's {@code ErrorMessage}s, once per error code. A refusal that retrying cannot
 * fix (bad token, unsupported version) closes the connection and asks for the long backoff; other
 * fatal errors close it and reconnect normally; non-fatal ones are only reported.
 */
final class DaemonErrorHandler extends ChannelInboundHandlerAdapter {
  private final String address;
  private final long fatalBackoffMillis;
  private final TransportCounters counters;
  private final OnceLog log;
  private final ConnectionEvents events;

  DaemonErrorHandler(
      String address,
      long fatalBackoffMillis,
      TransportCounters counters,
      OnceLog log,
      ConnectionEvents events) {
    this.address = address;
    this.fatalBackoffMillis = fatalBackoffMillis;
    this.counters = counters;
    this.log = log;
    this.events = events;
  }

  /** Configuration problems on one side or the other: the same answer comes back every time. */
  static boolean isRefusal(ErrorCode code) {
    return code == ErrorCode.BAD_TOKEN || code == ErrorCode.UNSUPPORTED_VERSION;
  }

  @Override
  public void channelRead(ChannelHandlerContext ctx, Object msg) {
    if (!(msg instanceof ErrorMessage error)) {
      ctx.fireChannelRead(msg);
      return;
    }
    String what = error.code() + ": " + error.message();
    if (isRefusal(error.code())) {
      String text = "daemon at " + address + " refused the agent: " + what;
      counters.error(text);
      log.report(
          "refused-" + error.code(), text + "; retrying in " + (fatalBackoffMillis / 1000) + " s");
      events.onRefused(error);
      ctx.close();
    } else if (error.fatal()) {
      String text = "daemon at " + address + " closed the connection: " + what;
      counters.error(text);
      log.report("error-" + error.code(), text + "; reconnecting");
      ctx.close();
    } else {
      String text = "daemon at " + address + " reported " + what;
      counters.error(text);
      log.report("error-" + error.code(), text);
    }
  }
}
