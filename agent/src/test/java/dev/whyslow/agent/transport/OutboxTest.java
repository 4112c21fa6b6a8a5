package dev.whyslow.agent.transport;

import static org.assertj.core.api.Assertions.assertThat;

import dev.whyslow.protocol.UnitTypeBatch;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class OutboxTest {
  @Test
  void offersBeyondTheCapacityAreRefused() {
    Outbox outbox = new Outbox(2, 10);

    assertThat(outbox.offer(TestData.run(1))).isTrue();
    assertThat(outbox.offer(TestData.run(2))).isTrue();
    assertThat(outbox.offer(TestData.run(3))).isFalse();
    assertThat(outbox.size()).isEqualTo(2);
    assertThat(outbox.poll().sequence()).isEqualTo(1);
    assertThat(outbox.offer(TestData.run(4))).isTrue();
  }

  @Test
  void concurrentOffersNeverGoPastTheCapacity() throws Exception {
    Outbox outbox = new Outbox(100, 1_000);
    AtomicInteger accepted = new AtomicInteger();
    CountDownLatch go = new CountDownLatch(1);
    List<Thread> threads = new ArrayList<>();
    for (int t = 0; t < 4; t++) {
      Thread thread =
          new Thread(
              () -> {
                try {
                  go.await();
                } catch (InterruptedException e) {
                  return;
                }
                for (int i = 0; i < 1_000; i++) {
                  if (outbox.offer(TestData.run(i))) {
                    accepted.incrementAndGet();
                  }
                }
              });
      thread.start();
      threads.add(thread);
    }

    go.countDown();
    for (Thread thread : threads) {
      thread.join(10_000);
    }

    assertThat(accepted.get()).isEqualTo(100);
    assertThat(outbox.size()).isEqualTo(100);
    assertThat(outbox.drainAll()).isEqualTo(100);
    assertThat(outbox.isEmpty()).isTrue();
  }

  @Test
  void aRunPushedBackLeadsTheNextBatch() {
    Outbox outbox = new Outbox(10, 10);
    outbox.offer(TestData.run(1));
    outbox.offer(TestData.run(2));

    outbox.pushBack(outbox.poll());

    assertThat(outbox.poll().sequence()).isEqualTo(1);
    assertThat(outbox.size()).isEqualTo(1);
  }

  @Test
  void theSignalFiresOnceAFullBatchWaits() {
    Outbox outbox = new Outbox(10, 3);
    AtomicInteger signals = new AtomicInteger();
    Runnable signal = signals::incrementAndGet;
    outbox.onBatchReady(signal);

    outbox.offer(TestData.run(1));
    outbox.offer(TestData.run(2));
    assertThat(signals.get()).isZero();
    outbox.offer(TestData.run(3));

    assertThat(signals.get()).isEqualTo(1);
  }

  @Test
  void messagesWaitForTheBatchUntilHalfTheirQueueIsFull() {
    Outbox outbox = new Outbox(10, 3);
    AtomicInteger signals = new AtomicInteger();
    outbox.onBatchReady(signals::incrementAndGet);

    for (int i = 1; i < Outbox.MESSAGE_WAKE_AT; i++) {
      assertThat(outbox.offerMessage(new UnitTypeBatch(List.of()))).isTrue();
    }
    assertThat(signals.get()).isZero();
    outbox.offerMessage(new UnitTypeBatch(List.of()));
    outbox.offerMessage(new UnitTypeBatch(List.of()));

    assertThat(signals.get()).isEqualTo(1);
    assertThat(outbox.pollMessage()).isNotNull();
  }

  @Test
  void clearingAnOldSignalKeepsTheNewerOne() {
    Outbox outbox = new Outbox(10, 1);
    AtomicInteger newer = new AtomicInteger();
    Runnable old = () -> {};
    Runnable current = newer::incrementAndGet;
    outbox.onBatchReady(current);

    outbox.clearBatchReady(old);
    outbox.offer(TestData.run(1));

    assertThat(newer.get()).isEqualTo(1);
  }

  @Test
  void sitesAccumulateInAnnouncementOrder() {
    Outbox outbox = new Outbox(10, 1);

    outbox.addSites(TestData.sites(1, 2));
    outbox.addSites(TestData.sites(5, 1));

    assertThat(outbox.siteCount()).isEqualTo(3);
    assertThat(outbox.site(2)).isEqualTo(TestData.site(5));
  }
}
