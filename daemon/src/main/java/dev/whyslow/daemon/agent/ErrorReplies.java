package dev.whyslow.daemon.agent;

import dev.whyslow.daemon.metrics.DaemonMetrics;
import dev.whyslow.protocol.ErrorCode;
import dev.whyslow.protocol.ErrorMessage;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFutureListener;
import io.netty.util.AttributeKey;
import java.lang.System.Logger.Level;

/**
 * Sends {@link ErrorMessage}s to agents and counts them as rejections. After a fatal error the
 * channel is marked so the decoders drop whatever else is still buffered: nothing from a connection
 * that broke the protocol is stored after the break.
 */
public final class ErrorReplies {
  private static final System.Logger LOG = System.getLogger(ErrorReplies.class.getName());
  private static final AttributeKey<Boolean> CLOSING = AttributeKey.valueOf("whyslow.closing");

  private final DaemonMetrics metrics;

  public ErrorReplies(DaemonMetrics metrics) {
    this.metrics = metrics;
  }

  /** Sends the error, then closes the connection. */
  public void fatal(Channel channel, ErrorCode code, String message) {
    if (channel.attr(CLOSING).setIfAbsent(Boolean.TRUE) != null) {
      return; // one fatal error per connection is enough
    }
    metrics.rejected(code);
    LOG.log(
        Level.INFO,
        "closing agent connection {0}: {1} {2}",
        channel.remoteAddress(),
        code,
        message);
    channel
        .writeAndFlush(new ErrorMessage(code, message, true))
        .addListener(ChannelFutureListener.CLOSE);
  }

  /** Sends the error and keeps the connection: only the offending batch was refused. */
  public void reject(Channel channel, ErrorCode code, String message) {
    metrics.rejected(code);
    LOG.log(Level.DEBUG, "rejected from {0}: {1} {2}", channel.remoteAddress(), code, message);
    if (!closing(channel)) {
      channel.writeAndFlush(new ErrorMessage(code, message, false));
    }
  }

  /** Whether a fatal error was sent and everything further from this channel must be ignored. */
  public static boolean closing(Channel channel) {
    return channel.attr(CLOSING).get() != null;
  }
}
