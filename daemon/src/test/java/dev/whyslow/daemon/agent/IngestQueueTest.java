package dev.whyslow.daemon.agent;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.channel.embedded.EmbeddedChannel;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class IngestQueueTest {
  private final ManualExecutor executor = new ManualExecutor();
  private final IngestQueue queue = new IngestQueue(1000, executor);
  private final EmbeddedChannel channel = new EmbeddedChannel();

  @AfterEach
  void close() {
    channel.finishAndReleaseAll();
  }

  @Test
  void tasksRunInSubmissionOrder() {
    List<Integer> order = new ArrayList<>();
    for (int i = 0; i < 5; i++) {
      int n = i;
      queue.submit(channel, 10, () -> order.add(n));
    }
    executor.runAll();
    assertThat(order).containsExactly(0, 1, 2, 3, 4);
    assertThat(queue.queuedBytes()).isZero();
  }

  @Test
  void channelStopsReadingWhenTheQueueIsFullAndResumesWhenItDrains() {
    queue.submit(channel, 600, () -> {});
    assertThat(channel.config().isAutoRead()).isTrue();

    queue.submit(channel, 600, () -> {});
    assertThat(channel.config().isAutoRead()).isFalse();
    assertThat(queue.pausedChannels()).isEqualTo(1);

    // 600 left: still above half the limit, so still paused.
    executor.runOne();
    channel.runPendingTasks();
    assertThat(channel.config().isAutoRead()).isFalse();

    executor.runOne();
    channel.runPendingTasks();
    assertThat(channel.config().isAutoRead()).isTrue();
    assertThat(queue.pausedChannels()).isZero();
  }

  @Test
  void nothingIsDroppedWhileFull() {
    List<Integer> done = new ArrayList<>();
    for (int i = 0; i < 20; i++) {
      int n = i;
      assertThat(queue.submit(channel, 400, () -> done.add(n))).isTrue();
    }
    executor.runAll();
    assertThat(done).hasSize(20);
  }

  @Test
  void aFailingTaskDoesNotStopTheQueueOrLeakItsCost() {
    queue.submit(
        channel,
        100,
        () -> {
          throw new IllegalStateException("boom");
        });
    List<String> after = new ArrayList<>();
    queue.submit(channel, 100, () -> after.add("ran"));
    executor.runAll();
    assertThat(after).containsExactly("ran");
    assertThat(queue.queuedBytes()).isZero();
  }

  @Test
  void closedQueueRefusesNewWork() {
    queue.close();
    assertThat(queue.submit(channel, 10, () -> {})).isFalse();
    assertThat(queue.queuedBytes()).isZero();
  }

  @Test
  void drainRunsEverythingQueuedOnTheRealThread() throws Exception {
    IngestQueue real = new IngestQueue(1 << 20);
    CountDownLatch ran = new CountDownLatch(3);
    for (int i = 0; i < 3; i++) {
      real.submit(channel, 1, ran::countDown);
    }
    assertThat(real.drain(java.time.Duration.ofSeconds(10))).isTrue();
    assertThat(ran.await(0, TimeUnit.SECONDS)).isTrue();
  }
}
