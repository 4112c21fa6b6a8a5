package dev.whyslow.agent.transport;

import dev.whyslow.protocol.AgentStats;
import dev.whyslow.protocol.MessageCodec;
import io.netty.channel.Channel;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelPipeline;
import io.netty.channel.WriteBufferWaterMark;
import io.netty.handler.codec.LengthFieldBasedFrameDecoder;
import io.netty.handler.codec.LengthFieldPrepender;
import java.util.function.Supplier;

/**
 * Assembles one connection's pipeline, one handler per concern. Inbound: frames, messages,
 * handshake, daemon errors, commands, sender, exceptions. Outbound: message encoder, length prefix,
 * byte counter.
 */
final class TransportInitializer extends ChannelInitializer<Channel> {
  /** Writes pause above 1 MiB of unsent bytes and resume below 256 KiB. */
  static final WriteBufferWaterMark WATER_MARK = new WriteBufferWaterMark(256 * 1024, 1024 * 1024);

  private final TransportSettings settings;
  private final Outbox outbox;
  private final TransportCounters counters;
  private final OnceLog log;
  private final CommandListener listener;
  private final Supplier<AgentStats> stats;
  private final ConnectionEvents events;
  private final long handshakeTimeoutMillis;

  TransportInitializer(
      TransportSettings settings,
      Outbox outbox,
      TransportCounters counters,
      OnceLog log,
      CommandListener listener,
      Supplier<AgentStats> stats,
      ConnectionEvents events,
      long handshakeTimeoutMillis) {
    this.settings = settings;
    this.outbox = outbox;
    this.counters = counters;
    this.log = log;
    this.listener = listener;
    this.stats = stats;
    this.events = events;
    this.handshakeTimeoutMillis = handshakeTimeoutMillis;
  }

  @Override
  protected void initChannel(Channel ch) {
    ch.config().setWriteBufferWaterMark(WATER_MARK);
    String address = settings.address();
    int maxFrame = settings.maxFrameBytes();
    // The decoder's limit counts the length prefix too.
    int maxFrameWithPrefix = (int) Math.min(Integer.MAX_VALUE, (long) maxFrame + 4);
    ChannelPipeline p = ch.pipeline();
    p.addLast("bytes", new ByteCountingHandler(counters.bytesSent));
    p.addLast(
        "frameDecoder",
        new LengthFieldBasedFrameDecoder(
            maxFrameWithPrefix, 0, MessageCodec.LENGTH_PREFIX_BYTES, 0, 4));
    p.addLast("framePrepender", new LengthFieldPrepender(MessageCodec.LENGTH_PREFIX_BYTES));
    p.addLast("messageDecoder", new MessageDecoder());
    p.addLast("messageEncoder", new MessageEncoder(maxFrame));
    p.addLast(
        "handshake",
        new HandshakeHandler(
            settings.hello(), handshakeTimeoutMillis, address, counters, log, events));
    p.addLast(
        "errors",
        new DaemonErrorHandler(address, settings.fatalBackoffMillis(), counters, log, events));
    p.addLast("commands", new CommandHandler(listener, address, counters, log));
    p.addLast("sender", new RunSender(settings, outbox, counters, log, stats));
    p.addLast("exceptions", new ExceptionHandler(address, counters, log));
  }
}
