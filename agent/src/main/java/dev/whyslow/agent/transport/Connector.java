package dev.whyslow.agent.transport;

import dev.whyslow.protocol.ErrorMessage;
import dev.whyslow.protocol.HelloOk;
import io.netty.bootstrap.Bootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoop;
import io.netty.channel.socket.nio.NioSocketChannel;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;

/**
 * Keeps one connection to the daemon: connects, and after every failure or close schedules the next
 * attempt with {@link Backoff} (or the long fatal backoff after a refusal). Every attempt after the
 * first counts as a reconnect. All state is confined to the event loop.
 */
final class Connector implements ConnectionEvents {
  static final int CONNECT_TIMEOUT_MILLIS = 10_000;

  private final TransportSettings settings;
  private final EventLoop loop;
  private final Bootstrap bootstrap;
  private final Outbox outbox;
  private final TransportCounters counters;
  private final OnceLog log;
  private final Backoff backoff;

  private Channel channel;
  private boolean connecting;
  private boolean attempted;
  private boolean refused;
  private boolean stopped;
  private ScheduledFuture<?> reconnect;
  private volatile long lastDelayMillis = -1;

  Connector(
      TransportSettings settings,
      EventLoop loop,
      Function<ConnectionEvents, ChannelHandler> pipeline,
      Outbox outbox,
      TransportCounters counters,
      OnceLog log,
      Backoff backoff) {
    this.settings = settings;
    this.loop = loop;
    this.outbox = outbox;
    this.counters = counters;
    this.log = log;
    this.backoff = backoff;
    this.bootstrap =
        new Bootstrap()
            .group(loop)
            .channel(NioSocketChannel.class)
            .option(ChannelOption.CONNECT_TIMEOUT_MILLIS, CONNECT_TIMEOUT_MILLIS)
            .option(ChannelOption.TCP_NODELAY, true)
            .option(ChannelOption.SO_KEEPALIVE, true)
            .handler(pipeline.apply(this));
  }

  void start() {
    loop.execute(this::connect);
  }

  /** The delay chosen for the latest scheduled reconnect, or -1 before the first. */
  long lastDelayMillis() {
    return lastDelayMillis;
  }

  @Override
  public void onHandshake(HelloOk ok) {
    backoff.reset();
    refused = false;
  }

  @Override
  public void onRefused(ErrorMessage error) {
    refused = true;
  }

  private void connect() {
    reconnect = null;
    if (stopped || connecting || channel != null) {
      return;
    }
    if (attempted) {
      counters.reconnects.increment();
    }
    attempted = true;
    connecting = true;
    refused = false;
    bootstrap
        .connect(settings.host(), settings.port())
        .addListener(f -> connected((ChannelFuture) f));
  }

  private void connected(ChannelFuture future) {
    connecting = false;
    if (!future.isSuccess()) {
      String text =
          "cannot reach daemon at "
              + settings.address()
              + ": "
              + ExceptionHandler.describe(future.cause());
      counters.lastError = text;
      log.report(
          "connect",
          text
              + "; keeping up to "
              + settings.queueCapacity()
              + " runs (newer ones are dropped and counted) and retrying with backoff");
      scheduleReconnect();
      // At shutdown one refused attempt is answer enough: don't hold the JVM's exit for the
      // timeout.
      CompletableFuture<Void> flush = outbox.flushRequest();
      if (flush != null) {
        flush.complete(null);
      }
      return;
    }
    Channel ch = future.channel();
    channel = ch;
    ch.closeFuture().addListener(f -> closed(ch));
    if (stopped) {
      ch.close();
    }
  }

  private void closed(Channel ch) {
    if (channel != ch) {
      return;
    }
    channel = null;
    if (!stopped) {
      scheduleReconnect();
    }
  }

  private void scheduleReconnect() {
    if (stopped) {
      return;
    }
    long delay = refused ? settings.fatalBackoffMillis() : backoff.nextDelayMillis();
    lastDelayMillis = delay;
    try {
      reconnect = loop.schedule(this::connect, delay, TimeUnit.MILLISECONDS);
    } catch (Throwable t) {
      // The loop is shutting down.
    }
  }

  /**
   * Completes once everything queued has been written, or as soon as there is nothing to send or no
   * hope of sending it (stopped, refused, or a connection attempt failed). Replaces a pending
   * reconnect with an attempt now, so a daemon that is up gets the last runs within the timeout.
   */
  CompletableFuture<Void> requestFlush() {
    CompletableFuture<Void> done = new CompletableFuture<>();
    outbox.requestFlush(done);
    try {
      loop.execute(() -> flushNow(done));
    } catch (Throwable t) {
      done.complete(null);
    }
    return done;
  }

  private void flushNow(CompletableFuture<Void> done) {
    RunSender sender = channel == null ? null : channel.pipeline().get(RunSender.class);
    if (sender != null && sender.isReady()) {
      sender.drain();
    } else if (outbox.isEmpty() || stopped || refused) {
      done.complete(null);
    } else if (channel == null && !connecting) {
      if (reconnect != null) {
        reconnect.cancel(false);
      }
      connect();
    }
  }

  /** Stops reconnecting and closes the connection; completes when that is done on the loop. */
  CompletableFuture<Void> stop() {
    CompletableFuture<Void> done = new CompletableFuture<>();
    try {
      loop.execute(
          () -> {
            stopped = true;
            if (reconnect != null) {
              reconnect.cancel(false);
            }
            if (channel != null) {
              channel.close().addListener(f -> done.complete(null));
            } else {
              done.complete(null);
            }
          });
    } catch (Throwable t) {
      done.complete(null);
    }
    return done;
  }
}
