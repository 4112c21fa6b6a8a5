package dev.whyslow.agent.transport;

import dev.whyslow.protocol.AgentStats;
import dev.whyslow.protocol.HelloOk;
import dev.whyslow.protocol.Message;
import dev.whyslow.protocol.Run;
import dev.whyslow.protocol.RunBatch;
import dev.whyslow.protocol.Site;
import dev.whyslow.protocol.SiteBatch;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.util.concurrent.Future;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Supplier;

/**
 * After the handshake, moves the {@link Outbox} onto the connection: every site announced so far,
 * then runs in batches cut by count and by the daemon's frame limit, plus periodic agent
 * statistics. It writes only while the channel is writable, so Netty's outbound buffer stays under
 * the high water mark and everything else waits in the bounded outbox. Batches go out when full
 * (the outbox wakes the loop) or when the batch timer fires, so no run waits longer than the batch
 * delay.
 */
final class RunSender extends ChannelInboundHandlerAdapter {
  /** Keeps one site frame small enough to interleave with other traffic. */
  static final int SITE_BATCH_MAX = 4096;

  private final TransportSettings settings;
  private final Outbox outbox;
  private final TransportCounters counters;
  private final OnceLog log;
  private final Supplier<AgentStats> stats;
  private final AtomicBoolean wakeupPending = new AtomicBoolean();
  private final Runnable signal = this::signalBatchReady;
  private final Runnable wakeupTask = this::wakeup;

  // Confined to the event loop.
  private ChannelHandlerContext ctx;
  private boolean ready;
  private int frameLimit;
  private int sitesSent;
  private int runsInFlight;
  private ScheduledFuture<?> batchTimer;
  private ScheduledFuture<?> statsTimer;

  RunSender(
      TransportSettings settings,
      Outbox outbox,
      TransportCounters counters,
      OnceLog log,
      Supplier<AgentStats> stats) {
    this.settings = settings;
    this.outbox = outbox;
    this.counters = counters;
    this.log = log;
    this.stats = stats;
  }

  boolean isReady() {
    return ready;
  }

  @Override
  public void handlerAdded(ChannelHandlerContext ctx) {
    this.ctx = ctx;
  }

  @Override
  public void userEventTriggered(ChannelHandlerContext ctx, Object evt) {
    if (evt instanceof HandshakeCompleted completed) {
      onReady(completed.helloOk());
    } else {
      ctx.fireUserEventTriggered(evt);
    }
  }

  @Override
  public void channelWritabilityChanged(ChannelHandlerContext ctx) {
    if (ctx.channel().isWritable()) {
      wakeupPending.set(false);
      drain();
    }
    ctx.fireChannelWritabilityChanged();
  }

  @Override
  public void channelInactive(ChannelHandlerContext ctx) {
    stop();
    ctx.fireChannelInactive();
  }

  @Override
  public void handlerRemoved(ChannelHandlerContext ctx) {
    stop();
  }

  private void onReady(HelloOk ok) {
    ready = true;
    sitesSent = 0;
    int daemonLimit = ok.maxFrameBytes() > 0 ? ok.maxFrameBytes() : Integer.MAX_VALUE;
    frameLimit = Math.min(settings.maxFrameBytes(), daemonLimit);
    counters.connected = true;
    long batchDelay = settings.batchMaxDelayMillis();
    batchTimer =
        ctx.executor()
            .scheduleAtFixedRate(this::drain, batchDelay, batchDelay, TimeUnit.MILLISECONDS);
    long statsInterval = settings.statsIntervalMillis();
    statsTimer =
        ctx.executor()
            .scheduleAtFixedRate(
                this::sendStats, statsInterval, statsInterval, TimeUnit.MILLISECONDS);
    wakeupPending.set(false);
    outbox.onBatchReady(signal);
    drain();
  }

  private void stop() {
    if (batchTimer != null) {
      batchTimer.cancel(false);
      statsTimer.cancel(false);
      batchTimer = null;
      statsTimer = null;
    }
    if (ready) {
      ready = false;
      counters.connected = false;
      outbox.clearBatchReady(signal);
    }
  }

  /** Writes pending sites and runs while the channel is writable. Runs on the loop. */
  void drain() {
    if (!ready) {
      return;
    }
    try {
      boolean wrote = false;
      while (ctx.channel().isWritable()) {
        if (sitesSent < outbox.siteCount()) {
          writeSites();
          wrote = true;
          continue;
        }
        Message message = outbox.pollMessage();
        if (message != null) {
          while (sitesSent < outbox.siteCount()) {
            writeSites();
          }
          ctx.write(message).addListener(this::checkWritten);
          wrote = true;
          continue;
        }
        List<Run> batch = cutBatch();
        if (batch.isEmpty()) {
          break;
        }
        // A thread announces a class's sites before it queues runs that mention them, so once a
        // run is taken its sites are visible here; they must reach the daemon first.
        while (sitesSent < outbox.siteCount()) {
          writeSites();
        }
        writeRuns(batch);
        wrote = true;
      }
      if (wrote) {
        ctx.flush();
      }
    } catch (Throwable t) {
      String text = "sending to daemon at " + settings.address() + " failed: " + t;
      counters.error(text);
      log.report("sender", text);
    }
    checkFlushed();
  }

  private List<Run> cutBatch() {
    List<Run> batch = new ArrayList<>(Math.min(settings.batchMaxRuns(), outbox.size()));
    long bytes = WireSizes.BATCH_HEADER_BYTES;
    while (batch.size() < settings.batchMaxRuns()) {
      Run run = outbox.poll();
      if (run == null) {
        break;
      }
      int size = WireSizes.run(run);
      if (bytes + size > frameLimit) {
        if (batch.isEmpty()) {
          dropOversized(run, size);
          continue;
        }
        outbox.pushBack(run);
        break;
      }
      batch.add(run);
      bytes += size;
    }
    return batch;
  }

  private void writeSites() {
    int count = outbox.siteCount();
    List<Site> chunk = new ArrayList<>(Math.min(SITE_BATCH_MAX, count - sitesSent));
    long bytes = WireSizes.BATCH_HEADER_BYTES;
    while (sitesSent < count && chunk.size() < SITE_BATCH_MAX) {
      Site site = outbox.site(sitesSent);
      int size = WireSizes.site(site);
      if (bytes + size > frameLimit) {
        if (!chunk.isEmpty()) {
          break;
        }
        String text = "site " + site.location() + " is larger than one frame; not sent";
        counters.error(text);
        log.report("site-oversized", text);
      } else {
        chunk.add(site);
        bytes += size;
      }
      sitesSent++;
    }
    if (!chunk.isEmpty()) {
      ctx.write(new SiteBatch(chunk)).addListener(this::checkWritten);
    }
  }

  private void writeRuns(List<Run> batch) {
    int n = batch.size();
    runsInFlight += n;
    ctx.write(new RunBatch(batch))
        .addListener(
            future -> {
              runsInFlight -= n;
              if (future.isSuccess()) {
                counters.runsSent.add(n);
              } else {
                counters.runsDropped.add(n);
                String text =
                    "writing "
                        + n
                        + " runs to daemon at "
                        + settings.address()
                        + " failed: "
                        + ExceptionHandler.describe(future.cause());
                counters.error(text);
                log.report("write-failed", text + "; they are dropped and counted");
              }
              checkFlushed();
            });
  }

  private void checkWritten(Future<? super Void> future) {
    if (!future.isSuccess() && ctx.channel().isActive()) {
      String text =
          "writing to daemon at "
              + settings.address()
              + " failed: "
              + ExceptionHandler.describe(future.cause());
      counters.error(text);
      log.report("write-failed", text);
    }
  }

  private void dropOversized(Run run, int size) {
    counters.runsDropped.increment();
    String text =
        "run "
            + run.sequence()
            + " with "
            + run.sites().size()
            + " sites is "
            + size
            + " bytes, more than the daemon's frame limit of "
            + frameLimit
            + " bytes; dropped. Raise the daemon's max frame size or lower the sampling rate";
    counters.error(text);
    log.report("run-oversized", text);
  }

  private void sendStats() {
    if (!ready || !ctx.channel().isWritable()) {
      return; // statistics are cumulative: the next snapshot covers a skipped one
    }
    AgentStats base = null;
    try {
      base = stats.get();
    } catch (Throwable t) {
      String text = "reading agent statistics failed: " + t;
      counters.error(text);
      log.report("stats-supplier", text);
    }
    ctx.writeAndFlush(counters.merge(base, System.currentTimeMillis()))
        .addListener(this::checkWritten);
  }

  private void checkFlushed() {
    CompletableFuture<Void> flush = outbox.flushRequest();
    if (flush != null && runsInFlight == 0 && outbox.isEmpty()) {
      flush.complete(null);
    }
  }

  /** Called by application threads when a full batch waits; wakes the loop at most once. */
  private void signalBatchReady() {
    if (wakeupPending.compareAndSet(false, true)) {
      try {
        ctx.executor().execute(wakeupTask);
      } catch (Throwable t) {
        // The loop is shutting down; the runs stay queued and are counted at close.
      }
    }
  }

  private void wakeup() {
    drain();
    // While the channel is not writable, stay "pending" so application threads do not wake the
    // loop for nothing; channelWritabilityChanged clears it.
    wakeupPending.set(ready && !ctx.channel().isWritable());
  }

  int runsInFlight() {
    return runsInFlight;
  }
}
