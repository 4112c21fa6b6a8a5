package dev.whyslow.agent.transport;

import dev.whyslow.protocol.SetEnabled;
import dev.whyslow.protocol.SetSamplingRate;
import dev.whyslow.protocol.SetThresholds;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;

/**
 * Hands the daemon's commands to the {@link CommandListener}. The listener is the rest of the
 * agent; whatever it throws is caught, counted and reported once, and the connection carries on.
 * Messages the daemon should never send are reported once and ignored.
 */
final class CommandHandler extends ChannelInboundHandlerAdapter {
  private final CommandListener listener;
  private final String address;
  private final TransportCounters counters;
  private final OnceLog log;

  CommandHandler(
      CommandListener listener, String address, TransportCounters counters, OnceLog log) {
    this.listener = listener;
    this.address = address;
    this.counters = counters;
    this.log = log;
  }

  @Override
  public void channelRead(ChannelHandlerContext ctx, Object msg) {
    if (msg instanceof SetSamplingRate command) {
      try {
        listener.onSamplingRate(command.rate());
      } catch (Throwable t) {
        listenerFailed("set-sampling-rate " + command.rate(), t);
      }
    } else if (msg instanceof SetEnabled command) {
      try {
        listener.onEnabled(command.enabled());
      } catch (Throwable t) {
        listenerFailed("set-enabled " + command.enabled(), t);
      }
    } else if (msg instanceof SetThresholds command) {
      try {
        listener.onThresholds(command.thresholds());
      } catch (Throwable t) {
        listenerFailed("set-thresholds (" + command.thresholds().size() + " thresholds)", t);
      }
    } else {
      String type = msg.getClass().getSimpleName();
      String text = "daemon at " + address + " sent an unexpected " + type + "; ignored";
      counters.error(text);
      log.report("unexpected-" + type, text);
    }
  }

  private void listenerFailed(String command, Throwable t) {
    String text = "applying the daemon's command " + command + " failed: " + t;
    counters.error(text);
    log.report("listener-" + t.getClass().getName(), text);
  }
}
