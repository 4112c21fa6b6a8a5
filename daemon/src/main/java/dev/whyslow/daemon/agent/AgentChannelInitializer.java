package dev.whyslow.daemon.agent;

import dev.whyslow.daemon.metrics.DaemonMetrics;
import io.netty.channel.Channel;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelPipeline;
import java.time.Clock;
import java.time.Duration;

/**
 * The agent pipeline, one handler per concern: encode replies, cap connections, split frames,
 * decode messages, handshake, ingest, end of connection.
 */
public final class AgentChannelInitializer extends ChannelInitializer<Channel> {
  /** How long a new connection may take to say hello. */
  public static final Duration HANDSHAKE_TIMEOUT = Duration.ofSeconds(10);

  private final AgentServerSettings settings;
  private final DaemonMetrics metrics;
  private final AgentRegistry registry;
  private final IngestWriter writer;
  private final ErrorReplies errors;
  private final MessageEncoder encoder = new MessageEncoder();
  private final ConnectionLimitHandler limit;
  private final ConnectionEndHandler end;
  private final Clock clock;

  public AgentChannelInitializer(
      AgentServerSettings settings,
      DaemonMetrics metrics,
      AgentRegistry registry,
      IngestWriter writer,
      ErrorReplies errors,
      Clock clock) {
    this.settings = settings;
    this.metrics = metrics;
    this.registry = registry;
    this.writer = writer;
    this.errors = errors;
    this.clock = clock;
    this.limit = new ConnectionLimitHandler(settings.maxConnections(), errors);
    this.end = new ConnectionEndHandler(errors);
  }

  @Override
  protected void initChannel(Channel channel) {
    ChannelPipeline p = channel.pipeline();
    p.addLast("encoder", encoder);
    p.addLast("limit", limit);
    p.addLast("frames", new AgentFrameDecoder(settings.maxFrameBytes(), errors));
    p.addLast("messages", new MessageDecoder(errors, metrics));
    p.addLast(
        "handshake",
        new HandshakeHandler(
            settings.token(),
            settings.daemonVersion(),
            settings.maxFrameBytes(),
            HANDSHAKE_TIMEOUT,
            registry,
            errors,
            clock));
    p.addLast("ingest", new IngestHandler(writer, errors));
    p.addLast("end", end);
  }
}
