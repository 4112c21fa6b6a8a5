package dev.whyslow.agent.transport;

import static org.assertj.core.api.Assertions.assertThat;

import dev.whyslow.protocol.AgentStats;
import dev.whyslow.protocol.HelloOk;
import dev.whyslow.protocol.MessageCodec;
import dev.whyslow.protocol.Run;
import dev.whyslow.protocol.RunBatch;
import dev.whyslow.protocol.SiteBatch;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelOutboundHandlerAdapter;
import io.netty.channel.ChannelPromise;
import io.netty.channel.embedded.EmbeddedChannel;
import java.io.IOException;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

class RunSenderTest {
  private static final int BATCH_MAX_RUNS = 3;
  private static final long BATCH_DELAY_MILLIS = 100;
  private static final long STATS_INTERVAL_MILLIS = 1_000;

  private final TransportSettings settings =
      new TransportSettings(
          "daemon",
          7000,
          TestData.HELLO,
          100,
          BATCH_MAX_RUNS,
          BATCH_DELAY_MILLIS,
          STATS_INTERVAL_MILLIS,
          10,
          100,
          60_000,
          MessageCodec.DEFAULT_MAX_FRAME_BYTES);
  private final Outbox outbox = new Outbox(100, BATCH_MAX_RUNS);
  private final TransportCounters counters = new TransportCounters();
  private final RecordingLog log = new RecordingLog();

  private EmbeddedChannel channel(Supplier<AgentStats> stats) {
    EmbeddedChannel channel =
        new EmbeddedChannel(new RunSender(settings, outbox, counters, log.log, stats));
    // Timers are scheduled at the handshake; a frozen clock makes advanceTimeBy exact.
    channel.freezeTime();
    return channel;
  }

  private EmbeddedChannel channel() {
    return channel(() -> null);
  }

  private static void handshake(EmbeddedChannel channel, int maxFrameBytes) {
    channel
        .pipeline()
        .fireUserEventTriggered(new HandshakeCompleted(new HelloOk("1.0", maxFrameBytes)));
  }

  private void offer(long fromSequence, int count) {
    for (int i = 0; i < count; i++) {
      assertThat(outbox.offer(TestData.run(fromSequence + i))).isTrue();
    }
  }

  private static List<Long> sequences(List<Object> messages) {
    return messages.stream()
        .filter(m -> m instanceof RunBatch)
        .flatMap(m -> ((RunBatch) m).runs().stream())
        .map(Run::sequence)
        .toList();
  }

  @Test
  void nothingIsSentBeforeTheHandshake() {
    EmbeddedChannel channel = channel();
    outbox.addSites(TestData.sites(1, 2));
    offer(1, 5);

    channel.advanceTimeBy(1, TimeUnit.SECONDS);
    channel.runPendingTasks();

    assertThat(Frames.outboundMessages(channel)).isEmpty();
    assertThat(counters.connected).isFalse();
  }

  @Test
  void sitesGoFirstThenRunsInBatchesOfAtMostBatchMaxRuns() {
    EmbeddedChannel channel = channel();
    outbox.addSites(TestData.sites(1, 2));
    offer(1, 7);

    handshake(channel, 1 << 20);

    List<Object> out = Frames.outboundMessages(channel);
    assertThat(out.get(0)).isEqualTo(new SiteBatch(TestData.sites(1, 2)));
    assertThat(out.subList(1, out.size()))
        .extracting(m -> ((RunBatch) m).runs().size())
        .containsExactly(3, 3, 1);
    assertThat(sequences(out)).containsExactly(1L, 2L, 3L, 4L, 5L, 6L, 7L);
    assertThat(counters.runsSent.sum()).isEqualTo(7);
    assertThat(counters.connected).isTrue();
  }

  @Test
  void batchesStayWithinTheFrameLimitTheDaemonAnnounced() {
    EmbeddedChannel channel = channel();
    int runBytes = WireSizes.run(TestData.run(1, 4));
    int limit = WireSizes.BATCH_HEADER_BYTES + 2 * runBytes; // room for two runs, not three
    for (int i = 1; i <= 5; i++) {
      outbox.offer(TestData.run(i, 4));
    }

    handshake(channel, limit);

    List<Object> out = Frames.outboundMessages(channel);
    assertThat(out).extracting(m -> ((RunBatch) m).runs().size()).containsExactly(2, 2, 1);
    assertThat(out)
        .allSatisfy(
            m -> assertThat(MessageCodec.encode((RunBatch) m).length).isLessThanOrEqualTo(limit));
    assertThat(sequences(out)).containsExactly(1L, 2L, 3L, 4L, 5L);
  }

  @Test
  void aRunLargerThanAFrameIsDroppedCountedAndReported() {
    EmbeddedChannel channel = channel();
    outbox.offer(TestData.run(1, 200));
    outbox.offer(TestData.run(2));

    handshake(channel, 1024);

    assertThat(sequences(Frames.outboundMessages(channel))).containsExactly(2L);
    assertThat(counters.runsDropped.sum()).isEqualTo(1);
    assertThat(log.count("run 1 with 200 sites is")).isEqualTo(1);
    assertThat(log.count("more than the daemon's frame limit of 1024 bytes")).isEqualTo(1);
  }

  @Test
  void sitesAnnouncedLaterGoBeforeTheRunsQueuedAfterThem() {
    EmbeddedChannel channel = channel();
    handshake(channel, 1 << 20);
    outbox.addSites(TestData.sites(7, 1));
    offer(1, 1);

    channel.advanceTimeBy(BATCH_DELAY_MILLIS, TimeUnit.MILLISECONDS);
    channel.runPendingTasks();

    List<Object> out = Frames.outboundMessages(channel);
    assertThat(out).hasSize(2);
    assertThat(out.get(0)).isEqualTo(new SiteBatch(TestData.sites(7, 1)));
    assertThat(out.get(1)).isInstanceOf(RunBatch.class);
  }

  @Test
  void aPartialBatchWaitsForTheBatchTimer() {
    EmbeddedChannel channel = channel();
    handshake(channel, 1 << 20);
    offer(1, 2);

    channel.advanceTimeBy(BATCH_DELAY_MILLIS - 1, TimeUnit.MILLISECONDS);
    channel.runPendingTasks();
    assertThat(Frames.outboundMessages(channel)).isEmpty();

    channel.advanceTimeBy(1, TimeUnit.MILLISECONDS);
    channel.runPendingTasks();
    assertThat(sequences(Frames.outboundMessages(channel))).containsExactly(1L, 2L);
  }

  @Test
  void aFullBatchWakesTheLoopWithoutWaitingForTheTimer() {
    EmbeddedChannel channel = channel();
    handshake(channel, 1 << 20);

    offer(1, BATCH_MAX_RUNS);
    channel.runPendingTasks();

    assertThat(sequences(Frames.outboundMessages(channel))).containsExactly(1L, 2L, 3L);
  }

  @Test
  void nothingIsWrittenWhileTheChannelIsNotWritable() {
    EmbeddedChannel channel = channel();
    handshake(channel, 1 << 20);
    channel.unsafe().outboundBuffer().setUserDefinedWritability(1, false);
    offer(1, 5);

    channel.advanceTimeBy(1, TimeUnit.SECONDS);
    channel.runPendingTasks();
    assertThat(Frames.outboundMessages(channel)).isEmpty();
    assertThat(outbox.size()).isEqualTo(5);

    channel.unsafe().outboundBuffer().setUserDefinedWritability(1, true);
    System.out.println(
        "writable "
            + channel.isWritable()
            + " outbox "
            + outbox.size()
            + " "
            + channel.outboundMessages());
    channel.runPendingTasks();

    assertThat(sequences(Frames.outboundMessages(channel))).containsExactly(1L, 2L, 3L, 4L, 5L);
  }

  @Test
  void writingStopsAtTheHighWaterMarkAndResumesWhenTheBufferDrains() {
    EmbeddedChannel channel = channel();
    // Every unflushed RunBatch counts toward the water mark; a tiny mark allows one write at a
    // time.
    channel.config().setWriteBufferWaterMark(new io.netty.channel.WriteBufferWaterMark(1, 2));
    handshake(channel, 1 << 20);
    offer(1, 9);

    channel.runPendingTasks();

    assertThat(sequences(Frames.outboundMessages(channel)))
        .containsExactly(1L, 2L, 3L, 4L, 5L, 6L, 7L, 8L, 9L);
    assertThat(outbox.size()).isZero();
  }

  @Test
  void statisticsGoOutEveryIntervalWithTheTransportCountersFilledIn() {
    EmbeddedChannel channel = channel(() -> new AgentStats(5, 100, 10, 4, 1, 20, 0, 0, 1, 0, 0));
    handshake(channel, 1 << 20);
    offer(1, BATCH_MAX_RUNS);
    channel.runPendingTasks();
    Frames.outboundMessages(channel);
    counters.runsDropped.add(3);

    channel.advanceTimeBy(STATS_INTERVAL_MILLIS, TimeUnit.MILLISECONDS);
    channel.runPendingTasks();

    assertThat(Frames.outboundMessages(channel))
        .containsExactly(new AgentStats(5, 100, 10, 4, 1, 20, 3, 3, 1, 0, 0));
  }

  @Test
  void aFailingStatisticsSupplierIsCountedAndTheTransportsOwnCountersStillGo() {
    EmbeddedChannel channel =
        channel(
            () -> {
              throw new IllegalStateException("not yet");
            });
    handshake(channel, 1 << 20);

    channel.advanceTimeBy(STATS_INTERVAL_MILLIS, TimeUnit.MILLISECONDS);
    channel.runPendingTasks();

    List<Object> out = Frames.outboundMessages(channel);
    assertThat(out).hasSize(1).first().isInstanceOf(AgentStats.class);
    assertThat(((AgentStats) out.get(0)).agentErrors()).isEqualTo(1);
    assertThat(log.count("reading agent statistics failed")).isEqualTo(1);
  }

  @Test
  void runsInAFailedWriteAreCountedAsDropped() {
    EmbeddedChannel channel =
        new EmbeddedChannel(
            new ChannelOutboundHandlerAdapter() {
              @Override
              public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) {
                promise.setFailure(new IOException("Broken pipe"));
              }
            },
            new RunSender(settings, outbox, counters, log.log, () -> null));
    offer(1, 2);

    handshake(channel, 1 << 20);

    assertThat(counters.runsDropped.sum()).isEqualTo(2);
    assertThat(counters.runsSent.sum()).isZero();
    assertThat(
            log.count("writing 2 runs to daemon at daemon:7000 failed: IOException: Broken pipe"))
        .isEqualTo(1);
  }

  @Test
  void aFlushRequestCompletesOnceEverythingQueuedIsWritten() {
    EmbeddedChannel channel = channel();
    CompletableFuture<Void> flushed = new CompletableFuture<>();
    outbox.requestFlush(flushed);
    offer(1, 5);
    assertThat(flushed).isNotDone();

    handshake(channel, 1 << 20);

    assertThat(flushed).isDone();
    assertThat(sequences(Frames.outboundMessages(channel))).hasSize(5);
  }

  @Test
  void closingTheConnectionMarksItDisconnectedAndStopsWakeups() {
    EmbeddedChannel channel = channel();
    handshake(channel, 1 << 20);
    assertThat(counters.connected).isTrue();

    channel.close();
    offer(1, BATCH_MAX_RUNS);
    channel.runPendingTasks();

    assertThat(counters.connected).isFalse();
    assertThat(outbox.size()).isEqualTo(BATCH_MAX_RUNS);
    assertThat(channel.hasPendingTasks()).isFalse();
  }
}
