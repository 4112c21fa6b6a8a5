package dev.whyslow.agent.bootstrap;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.management.ManagementFactory;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** How units begin, nest, end, and are found over their thresholds. */
class UnitsTest {
  private final RecordingUnitListener listener = new RecordingUnitListener();

  @BeforeEach
  void install() {
    Units.install(listener);
  }

  @AfterEach
  void uninstall() {
    Units.install(null);
    UnitType.setThresholds(new long[0]);
  }

  @Test
  void aUnitRunsFromBeginToEndAndItsSamplesGoToItsOwnRun() {
    ThreadState s = Probes.state();
    RunCounts before = s.currentRun();
    Units.begin("com.acme.Router.handle");
    assertThat(s.currentRun()).isInstanceOf(UnitRunCounts.class);
    Units.end();
    assertThat(s.currentRun()).isSameAs(before);
    assertThat(listener.ended)
        .singleElement()
        .satisfies(
            e -> {
              assertThat(e.type()).isEqualTo("com.acme.Router.handle");
              assertThat(e.violation()).isFalse();
              assertThat(e.elapsedNanos()).isPositive();
            });
  }

  @Test
  void aNestedEntryPointNamesTheUnitAndDoesNotStartAnother() {
    Units.begin("java.util.concurrent.FutureTask.run");
    Units.begin("com.acme.Router.handle");
    Units.end();
    assertThat(listener.ended).isEmpty();
    Units.end();
    assertThat(listener.ended)
        .singleElement()
        .satisfies(e -> assertThat(e.type()).isEqualTo("com.acme.Router.handle"));
  }

  @Test
  void waitingIsNeverPartOfAUnit() {
    Units.afterWait("com.acme.Worker.loop"); // first iteration's work
    Units.beforeWait();
    Units.beforeWait(); // nothing runs: nothing ends
    Units.afterWait("com.acme.Worker.loop");
    Units.loopExit();
    assertThat(listener.ended)
        .hasSize(2)
        .allSatisfy(
            e -> {
              assertThat(e.type()).isEqualTo("com.acme.Worker.loop");
              assertThat(e.kind()).isEqualTo(UnitState.LOOP);
            });
  }

  @Test
  void aUnitWhoseEntryFrameIsGoneEndsAtTheNextBegin() {
    ThreadState s = Probes.state();
    s.depth += 5;
    Whyslow.unitBegin("com.acme.Batch.step"); // never ended
    s.depth -= 5;
    Whyslow.unitBegin("com.acme.Batch.next");
    Whyslow.unitEnd();
    assertThat(listener.ended)
        .extracting(RecordingUnitListener.Ended::type)
        .containsExactly("com.acme.Batch.step", "com.acme.Batch.next");
  }

  @Test
  void aUnitOverItsThresholdIsAViolationAtItsEndOnceWithTheStack() {
    listener.threshold("com.acme.Slow.handle", 1);
    Units.begin("com.acme.Slow.handle");
    Units.end();
    assertThat(listener.violations)
        .singleElement()
        .satisfies(
            v -> {
              assertThat(v.cause()).isEqualTo(2);
              assertThat(v.stack()[0].getMethodName())
                  .isEqualTo("aUnitOverItsThresholdIsAViolationAtItsEndOnceWithTheStack");
              assertThat(v.runSequence()).isPositive();
            });
    assertThat(listener.ended).singleElement().satisfies(e -> assertThat(e.violation()).isTrue());
  }

  @Test
  void withoutAThresholdNoUnitIsAViolation() {
    Units.begin("com.acme.Unknown.handle");
    Units.end();
    Units.watch(System.nanoTime() + TimeUnit.HOURS.toNanos(1));
    assertThat(listener.violations).isEmpty();
    assertThat(listener.ended).singleElement().satisfies(e -> assertThat(e.violation()).isFalse());
  }

  @Test
  void theWatchdogCatchesAStuckUnitWithItsThreadsStackAndTheEndDoesNotReportItAgain()
      throws Exception {
    listener.threshold("com.acme.Stuck.handle", 1);
    CountDownLatch started = new CountDownLatch(1);
    CountDownLatch release = new CountDownLatch(1);
    Thread worker =
        new Thread(
            () -> {
              Units.begin("com.acme.Stuck.handle");
              started.countDown();
              awaitQuietly(release);
              Units.end();
            },
            "stuck-worker");
    worker.start();
    assertThat(started.await(10, TimeUnit.SECONDS)).isTrue();
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (worker.getState() != Thread.State.TIMED_WAITING && System.nanoTime() < deadline) {
      Thread.onSpinWait(); // until it waits inside awaitQuietly
    }
    Units.watch(System.nanoTime() + 1_000_000);
    Units.watch(System.nanoTime() + 1_000_000);
    release.countDown();
    worker.join(10_000);
    assertThat(listener.violations)
        .singleElement()
        .satisfies(
            v -> {
              assertThat(v.cause()).isEqualTo(3);
              assertThat(v.stack())
                  .anySatisfy(f -> assertThat(f.getMethodName()).isEqualTo("awaitQuietly"));
            });
    assertThat(listener.ended).singleElement().satisfies(e -> assertThat(e.violation()).isTrue());
  }

  @Test
  void aGuardInsideAUnitCatchesItOverThresholdButAMethodSharingTheGuardsBitIsNoGuard() {
    UnitType search = listener.typeOf("com.acme.Search");
    listener.threshold("com.acme.Search", 1);
    // Method 44 shares guard 300's watched bit (300 % 256 == 44), so its entry reaches the exact
    // check; the guard's candidates say: at relative depth 1, type 0 (search).
    ContextTable table = ContextTable.of(1, new int[] {300}, new long[][] {{0L, 1L}});
    Units.publish(new UnitModel(table, new UnitType[] {search}));
    try {
      ThreadState s = Probes.state();
      Units.begin("com.acme.Router.handle");
      long start = System.nanoTime();
      while (System.nanoTime() - start < 10_000) {
        Thread.onSpinWait(); // the unit is over its 1 ns threshold from here on
      }
      s.depth = Units.enter(s, 44) - 1;
      assertThat(listener.violations).isEmpty();
      s.depth = Units.enter(s, 300) - 1;
      assertThat(listener.violations)
          .singleElement()
          .satisfies(
              v -> {
                assertThat(v.type()).isEqualTo("com.acme.Search");
                assertThat(v.cause()).isEqualTo(1); // caught at the guard
              });
      Units.end();
    } finally {
      Units.publish(null);
    }
  }

  @ParameterizedTest
  @ValueSource(ints = {5, 64 + 5, 128 + 5, 192 + 5})
  void aGuardIsCaughtWhicheverWordOfTheWatchedBitsItsIdFallsIn(int guard) {
    UnitType search = listener.typeOf("com.acme.Search");
    listener.threshold("com.acme.Search", 1);
    Units.publish(
        new UnitModel(
            ContextTable.of(1, new int[] {guard}, new long[][] {{0L, 1L}}),
            new UnitType[] {search}));
    try {
      ThreadState s = Probes.state();
      Units.begin("com.acme.Router.handle");
      long start = System.nanoTime();
      while (System.nanoTime() - start < 10_000) {
        Thread.onSpinWait(); // over the 1 ns threshold from here on
      }
      s.depth = Units.enter(s, guard + 1) - 1; // the next bit of the same word: not watched
      assertThat(listener.violations).isEmpty();
      s.depth = Units.enter(s, guard) - 1;
      assertThat(listener.violations)
          .singleElement()
          .satisfies(v -> assertThat(v.cause()).isEqualTo(1)); // caught at the guard
      Units.end();
    } finally {
      Units.publish(null);
    }
  }

  @Test
  void aUnitKeepsTheModelItStartedWith() {
    UnitType search = listener.typeOf("com.acme.Search");
    listener.threshold("com.acme.Search", 1);
    ThreadState s = Probes.state();
    Units.begin("com.acme.Router.handle");
    Units.publish(
        new UnitModel(
            ContextTable.of(1, new int[] {300}, new long[][] {{0L, 1L}}), new UnitType[] {search}));
    try {
      s.depth = Units.enter(s, 300) - 1;
      Units.end();
      assertThat(listener.violations).isEmpty();
      assertThat(listener.ended)
          .singleElement()
          .satisfies(e -> assertThat(e.type()).isEqualTo("com.acme.Router.handle"));
    } finally {
      Units.publish(null);
    }
  }

  @Test
  void executorTaskNamesDropTheLambdaSuffix() {
    assertThat(Units.taskName("com.acme.Jobs$$Lambda/0x0000012345")).isEqualTo("com.acme.Jobs.run");
    assertThat(Units.taskName("java.util.concurrent.FutureTask"))
        .isEqualTo("java.util.concurrent.FutureTask.run");
  }

  @Test
  void beginEnterAndEndAllocateNothingPerUnit() {
    com.sun.management.ThreadMXBean threads =
        (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
    Units.install(
        new RecordingUnitListener() {
          @Override
          public void unitEnded(
              UnitState unit,
              UnitType type,
              long elapsedNanos,
              boolean violation,
              long runSequence) {}
        });
    // Long enough for C2 to have compiled the path: its one-off work (an OSR transition, a
    // deoptimisation) can allocate a few hundred bytes, which is not a per-unit cost.
    exercise(200_000);
    long before = threads.getCurrentThreadAllocatedBytes();
    exercise(200_000);
    long allocated = threads.getCurrentThreadAllocatedBytes() - before;
    assertThat(allocated).isLessThan(1_000);
  }

  private static void exercise(int units) {
    ThreadState s = Probes.state();
    for (int i = 0; i < units; i++) {
      Units.begin("com.acme.Router.handle");
      int d = Units.enter(s, 7);
      s.depth = d - 1;
      Units.end();
    }
  }

  private static void awaitQuietly(CountDownLatch latch) {
    try {
      latch.await(30, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
