package dev.whyslow.agent.bootstrap;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.ref.WeakReference;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class ThreadStatesTest {
  @AfterEach
  void restoreRate() {
    Probes.setSamplingRate(1e-4);
  }

  @Test
  void aThreadAlwaysFindsItsOwnState() {
    ThreadState first = ThreadStates.current();
    assertThat(ThreadStates.current()).isSameAs(first);
    assertThat(ThreadStates.owned()).isSameAs(first);
    assertThat(first.threadId).isEqualTo(Thread.currentThread().getId());
  }

  @Test
  void aRateChangeIsSeenAtTheNextLookup() {
    ThreadState s = ThreadStates.current();
    Probes.setSamplingRate(0.5);
    assertThat(ThreadStates.current()).isSameAs(s);
    assertThat(s.generation).isEqualTo(Probes.generation);
    assertThat(s.countdown).isBetween(1, 100);
  }

  @Test
  void threadsWhoseIdsShareASlotNeverShareAState() throws Exception {
    CountDownLatch firstLookedUp = new CountDownLatch(1);
    CountDownLatch otherLookedUp = new CountDownLatch(1);
    AtomicReference<ThreadState> firstBefore = new AtomicReference<>();
    AtomicReference<ThreadState> firstAfter = new AtomicReference<>();
    AtomicReference<ThreadState> other = new AtomicReference<>();
    Thread first =
        new Thread(
            () -> {
              firstBefore.set(ThreadStates.current());
              firstLookedUp.countDown();
              await(otherLookedUp);
              firstAfter.set(ThreadStates.current());
            });
    // Thread ids are given at construction: make threads until one lands in the same slot.
    Thread colliding = null;
    List<Thread> made = new ArrayList<>();
    for (int i = 0; i < 4 * ThreadStates.SLOTS && colliding == null; i++) {
      Thread t = new Thread(() -> other.set(ThreadStates.current()));
      if ((t.getId() - first.getId()) % ThreadStates.SLOTS == 0) {
        colliding = t;
      }
      made.add(t);
    }
    assertThat(colliding).as("a thread whose id shares the first one's slot").isNotNull();

    first.start();
    assertThat(firstLookedUp.await(10, TimeUnit.SECONDS)).isTrue();
    colliding.start(); // claims the slot
    colliding.join(10_000);
    otherLookedUp.countDown();
    first.join(10_000);

    assertThat(other.get()).isNotNull().isNotSameAs(firstBefore.get());
    assertThat(other.get().threadId).isEqualTo(colliding.getId());
    assertThat(firstAfter.get()).isSameAs(firstBefore.get());
    assertThat(firstAfter.get().threadId).isEqualTo(first.getId());
  }

  @Test
  void theTableKeepsNoDeadThreadAlive() throws Exception {
    Thread t = new Thread(ThreadStates::current);
    t.start();
    t.join(10_000);
    WeakReference<Thread> gone = new WeakReference<>(t);
    t = null;
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (gone.get() != null && System.nanoTime() < deadline) {
      System.gc();
      Thread.sleep(10);
    }
    assertThat(gone.get()).as("the finished thread, after GC").isNull();
  }

  private static void await(CountDownLatch latch) {
    try {
      latch.await(10, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
