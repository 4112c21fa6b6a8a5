package dev.whyslow.daemon.agent;

import dev.whyslow.protocol.ErrorCode;
import dev.whyslow.protocol.Hello;
import dev.whyslow.protocol.HelloOk;
import dev.whyslow.protocol.MessageCodec;
import dev.whyslow.storage.RunOrigin;
import dev.whyslow.storage.StoreLimits;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.util.ReferenceCountUtil;
import io.netty.util.concurrent.ScheduledFuture;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The first exchange on every agent connection: the agent's {@link Hello} is checked for protocol
 * version and token, the agent is registered, and {@link HelloOk} tells it the frame limit. Any
 * other first message, or none within the timeout, closes the connection. On success the handler
 * removes itself; later messages go straight to {@link IngestHandler}.
 */
public final class HandshakeHandler extends ChannelInboundHandlerAdapter {
  private static final AtomicLong CONNECTIONS = new AtomicLong();

  private final byte[] expectedToken;
  private final String daemonVersion;
  private final int maxFrameBytes;
  private final Duration timeout;
  private final AgentRegistry registry;
  private final ErrorReplies errors;
  private final Clock clock;
  private ScheduledFuture<?> timeoutTask;

  public HandshakeHandler(
      String agentToken,
      String daemonVersion,
      int maxFrameBytes,
      Duration timeout,
      AgentRegistry registry,
      ErrorReplies errors,
      Clock clock) {
    this.expectedToken = agentToken.getBytes(StandardCharsets.UTF_8);
    this.daemonVersion = daemonVersion;
    this.maxFrameBytes = maxFrameBytes;
    this.timeout = timeout;
    this.registry = registry;
    this.errors = errors;
    this.clock = clock;
  }

  @Override
  public void channelActive(ChannelHandlerContext ctx) {
    timeoutTask =
        ctx.executor()
            .schedule(
                () ->
                    errors.fatal(
                        ctx.channel(),
                        ErrorCode.HANDSHAKE_REQUIRED,
                        "no hello within " + timeout.toSeconds() + " s of connecting"),
                timeout.toMillis(),
                TimeUnit.MILLISECONDS);
    ctx.fireChannelActive();
  }

  @Override
  public void channelInactive(ChannelHandlerContext ctx) {
    cancelTimeout();
    ctx.fireChannelInactive();
  }

  @Override
  public void channelRead(ChannelHandlerContext ctx, Object msg) {
    try {
      if (!(msg instanceof Hello hello)) {
        errors.fatal(
            ctx.channel(),
            ErrorCode.HANDSHAKE_REQUIRED,
            "the first message must be a hello, got "
                + MessageDecoder.frameType((dev.whyslow.protocol.Message) msg)
                + "; send Hello(version, service, instance, ...) first");
        return;
      }
      accept(ctx, hello);
    } finally {
      ReferenceCountUtil.release(msg);
    }
  }

  private void accept(ChannelHandlerContext ctx, Hello hello) {
    cancelTimeout();
    if (hello.protocolVersion() != MessageCodec.PROTOCOL_VERSION) {
      errors.fatal(
          ctx.channel(),
          ErrorCode.UNSUPPORTED_VERSION,
          "protocol version "
              + hello.protocolVersion()
              + " is not supported; this daemon ("
              + daemonVersion
              + ") speaks version "
              + MessageCodec.PROTOCOL_VERSION
              + "; use an agent of the same release");
      return;
    }
    if (!tokenMatches(hello.token())) {
      // Never echo or log the token itself.
      errors.fatal(
          ctx.channel(),
          ErrorCode.BAD_TOKEN,
          (hello.token().isEmpty() ? "no token given" : "token rejected")
              + " for service '"
              + hello.service()
              + "'; set the agent's token to the daemon's agent.token");
      return;
    }
    if (hello.service().isBlank() || hello.instance().isBlank()) {
      errors.fatal(
          ctx.channel(),
          ErrorCode.INVALID_MESSAGE,
          "hello must name a service and an instance, got service '"
              + hello.service()
              + "' instance '"
              + hello.instance()
              + "'; set the agent's service name");
      return;
    }
    try {
      StoreLimits.checkOrigin(RunOrigin.of(hello));
    } catch (IllegalArgumentException e) {
      errors.fatal(ctx.channel(), ErrorCode.INVALID_MESSAGE, e.getMessage());
      return;
    }
    ConnectedAgent agent =
        new ConnectedAgent(
            Long.toString(CONNECTIONS.incrementAndGet()),
            RunOrigin.of(hello),
            hello.agentVersion(),
            String.valueOf(ctx.channel().remoteAddress()),
            clock.instant());
    // The reply goes first: registration may send commands (thresholds) on this channel.
    ctx.writeAndFlush(new HelloOk(daemonVersion, maxFrameBytes));
    registry.register(ctx.channel(), agent);
    ctx.pipeline().remove(this);
  }

  /** Constant time, so the comparison does not reveal how much of a guessed token was right. */
  private boolean tokenMatches(String given) {
    if (expectedToken.length == 0) {
      return true;
    }
    return MessageDigest.isEqual(expectedToken, given.getBytes(StandardCharsets.UTF_8));
  }

  private void cancelTimeout() {
    if (timeoutTask != null) {
      timeoutTask.cancel(false);
      timeoutTask = null;
    }
  }
}
