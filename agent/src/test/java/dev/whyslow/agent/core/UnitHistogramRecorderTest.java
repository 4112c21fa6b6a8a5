package dev.whyslow.agent.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.whyslow.protocol.UnitHistogram;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The striped interval adds up to what was recorded, from one thread or many, and resets. */
class UnitHistogramRecorderTest {
  @Test
  void oneThreadsUnitsAddUp() {
    UnitHistogramRecorder recorder = new UnitHistogramRecorder("shop.search", 4);
    recorder.record(2_000_000, false);
    recorder.record(300_000, false);
    recorder.record(40_000_000, true);
    recorder.record(-5, false); // a clock step back counts as zero

    UnitHistogram h = recorder.drain();

    assertThat(h.unitType()).isEqualTo("shop.search");
    assertThat(h.count()).isEqualTo(4);
    assertThat(h.sumNanos()).isEqualTo(42_300_000);
    assertThat(h.sumSquaresNanos2()).isEqualTo(4e12 + 9e10 + 1.6e15);
    assertThat(h.minNanos()).isZero();
    assertThat(h.maxNanos()).isEqualTo(40_000_000);
    assertThat(h.violations()).isEqualTo(1);
    long[] buckets = h.bucketCounts();
    assertThat(buckets[UnitHistogram.bucketOf(0)]).isEqualTo(1);
    assertThat(buckets[UnitHistogram.bucketOf(300_000)]).isEqualTo(1);
    assertThat(buckets[UnitHistogram.bucketOf(2_000_000)]).isEqualTo(1);
    assertThat(buckets[UnitHistogram.bucketOf(40_000_000)]).isEqualTo(1);
  }

  @Test
  void drainStartsTheNextInterval() {
    UnitHistogramRecorder recorder = new UnitHistogramRecorder("t", 2);
    assertThat(recorder.drain()).isNull();
    recorder.record(7_000_000, false);
    assertThat(recorder.drain().count()).isEqualTo(1);
    assertThat(recorder.drain()).isNull();

    recorder.record(9_000_000, false);
    UnitHistogram next = recorder.drain();
    assertThat(next.count()).isEqualTo(1);
    assertThat(next.minNanos()).isEqualTo(9_000_000);
    assertThat(next.maxNanos()).isEqualTo(9_000_000);
  }

  @Test
  @Timeout(60)
  void manyThreadsAtOnceLoseNothing() throws Exception {
    int threads = 8;
    int perThread = 20_000;
    UnitHistogramRecorder recorder = new UnitHistogramRecorder("t", 4);
    CountDownLatch start = new CountDownLatch(1);
    List<Thread> workers = new ArrayList<>();
    List<UnitHistogram> drained = new ArrayList<>();
    for (int t = 0; t < threads; t++) {
      long base = (t + 1) * 1_000L;
      Thread worker =
          new Thread(
              () -> {
                awaitQuietly(start);
                for (int i = 0; i < perThread; i++) {
                  recorder.record(base + i, i % 100 == 0);
                }
              });
      worker.start();
      workers.add(worker);
    }
    start.countDown();
    // Drains while the threads record, as the units' worker does every interval.
    while (workers.stream().anyMatch(Thread::isAlive)) {
      UnitHistogram h = recorder.drain();
      if (h != null) {
        drained.add(h);
      }
    }
    for (Thread worker : workers) {
      worker.join(TimeUnit.SECONDS.toMillis(30));
    }
    UnitHistogram last = recorder.drain();
    if (last != null) {
      drained.add(last);
    }

    long count = drained.stream().mapToLong(UnitHistogram::count).sum();
    long sum = drained.stream().mapToLong(UnitHistogram::sumNanos).sum();
    long violations = drained.stream().mapToLong(UnitHistogram::violations).sum();
    long expectedSum = 0;
    for (int t = 0; t < threads; t++) {
      expectedSum += (t + 1) * 1_000L * perThread + (long) perThread * (perThread - 1) / 2;
    }
    assertThat(count).isEqualTo((long) threads * perThread);
    assertThat(sum).isEqualTo(expectedSum);
    assertThat(violations).isEqualTo((long) threads * perThread / 100);
    assertThat(drained.stream().mapToLong(UnitHistogram::minNanos).min().getAsLong())
        .isEqualTo(1_000);
    assertThat(drained.stream().mapToLong(UnitHistogram::maxNanos).max().getAsLong())
        .isEqualTo(threads * 1_000L + perThread - 1);
  }

  @Test
  void stripesArePowersOfTwoUpToSixteen() {
    assertThat(UnitHistogramRecorder.stripesFor(1)).isEqualTo(1);
    assertThat(UnitHistogramRecorder.stripesFor(2)).isEqualTo(2);
    assertThat(UnitHistogramRecorder.stripesFor(3)).isEqualTo(4);
    assertThat(UnitHistogramRecorder.stripesFor(12)).isEqualTo(16);
    assertThat(UnitHistogramRecorder.stripesFor(96)).isEqualTo(16);
    assertThat(UnitHistogramRecorder.stripesFor(0)).isEqualTo(1);
    assertThatThrownBy(() -> new UnitHistogramRecorder("t", 3))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("power of two");
    assertThatThrownBy(() -> new UnitHistogramRecorder("t", 32))
        .isInstanceOf(IllegalArgumentException.class);
  }

  private static void awaitQuietly(CountDownLatch latch) {
    try {
      latch.await();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
