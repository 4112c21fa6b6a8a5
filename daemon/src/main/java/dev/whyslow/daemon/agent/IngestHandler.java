package dev.whyslow.daemon.agent;

import dev.whyslow.protocol.AgentStats;
import dev.whyslow.protocol.ErrorCode;
import dev.whyslow.protocol.Hello;
import dev.whyslow.protocol.Message;
import dev.whyslow.protocol.RunBatch;
import dev.whyslow.protocol.SiteBatch;
import dev.whyslow.protocol.UnitStats;
import dev.whyslow.protocol.UnitTypeBatch;
import dev.whyslow.protocol.ViolationBatch;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.SimpleChannelInboundHandler;

/**
 * Routes an agent's messages after the handshake: sites, runs, statistics, unit statistics,
 * violations and unit types to the {@link IngestWriter}; anything an agent has no business sending
 * (daemon-to-agent commands such as {@code SetThresholds}) is refused with {@code INVALID_MESSAGE}.
 */
public final class IngestHandler extends SimpleChannelInboundHandler<Message> {
  private final IngestWriter writer;
  private final ErrorReplies errors;

  public IngestHandler(IngestWriter writer, ErrorReplies errors) {
    super(Message.class);
    this.writer = writer;
    this.errors = errors;
  }

  @Override
  protected void channelRead0(ChannelHandlerContext ctx, Message message) {
    if (ErrorReplies.closing(ctx.channel())) {
      return;
    }
    ConnectedAgent agent = AgentRegistry.agentOf(ctx.channel()).orElse(null);
    if (agent == null) {
      errors.fatal(ctx.channel(), ErrorCode.HANDSHAKE_REQUIRED, "send a hello first");
      return;
    }
    if (message instanceof SiteBatch sites) {
      writer.sites(ctx.channel(), agent, sites);
    } else if (message instanceof RunBatch runs) {
      writer.runs(ctx.channel(), agent, runs.runs());
    } else if (message instanceof AgentStats stats) {
      writer.stats(ctx.channel(), agent, stats);
    } else if (message instanceof UnitStats stats) {
      writer.unitStats(ctx.channel(), agent, stats);
    } else if (message instanceof ViolationBatch batch) {
      writer.violations(ctx.channel(), agent, batch.violations());
    } else if (message instanceof UnitTypeBatch batch) {
      writer.unitTypes(ctx.channel(), agent, batch.types());
    } else if (message instanceof Hello) {
      errors.fatal(
          ctx.channel(),
          ErrorCode.INVALID_MESSAGE,
          "a second hello on the same connection; reconnect to change identity");
    } else {
      errors.reject(
          ctx.channel(),
          ErrorCode.INVALID_MESSAGE,
          "agents do not send "
              + message.getClass().getSimpleName()
              + " messages; the message was ignored");
    }
  }
}
