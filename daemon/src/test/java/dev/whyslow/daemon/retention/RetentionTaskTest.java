package dev.whyslow.daemon.retention;

import static org.assertj.core.api.Assertions.assertThat;

import dev.whyslow.daemon.TestData;
import dev.whyslow.storage.InMemoryStore;
import dev.whyslow.storage.RunOrigin;
import dev.whyslow.storage.RunQuery;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class RetentionTaskTest {
  private static final Instant DAY_0 = Instant.parse("2024-06-01T00:00:00Z");
  private static final RunOrigin ORIGIN = new RunOrigin("checkout", "host-a", "1.0");

  private final InMemoryStore store = new InMemoryStore();
  private final MovableClock clock = new MovableClock(DAY_0);

  @AfterEach
  void close() {
    store.close();
  }

  private long day(int n) {
    return DAY_0.plus(Duration.ofDays(n)).toEpochMilli();
  }

  @Test
  void alsoDeletesOldUnitStatisticsAndViolations() {
    store.putUnitStats(
        ORIGIN,
        new dev.whyslow.protocol.UnitStats(
            day(0), 10_000, List.of(dev.whyslow.storage.UnitHistograms.empty("search"))));
    store.putUnitStats(
        ORIGIN,
        new dev.whyslow.protocol.UnitStats(
            day(2), 10_000, List.of(dev.whyslow.storage.UnitHistograms.empty("search"))));
    for (long detected : new long[] {day(0), day(2)}) {
      store.putViolations(
          ORIGIN,
          List.of(
              new dev.whyslow.protocol.Violation(
                  detected,
                  detected,
                  "search",
                  2,
                  1,
                  dev.whyslow.protocol.ViolationCause.UNIT_END,
                  "t",
                  List.of(),
                  0)));
    }
    clock.set(DAY_0.plus(Duration.ofDays(15)));

    new RetentionTask(store, Duration.ofDays(14), clock).runOnce();

    assertThat(
            store.unitStats(dev.whyslow.storage.UnitStatsQuery.of("checkout", 0, Long.MAX_VALUE)))
        .extracting(s -> s.intervalStartEpochMillis())
        .containsExactly(day(2));
    assertThat(store.violations(dev.whyslow.storage.ViolationQuery.forService("checkout")))
        .extracting(v -> v.violation().detectedEpochMillis())
        .containsExactly(day(2));
  }

  @Test
  void deletesRunsOlderThanTheRetentionAsTheClockMoves() {
    store.putRuns(
        ORIGIN,
        List.of(TestData.run(1, day(0)), TestData.run(2, day(1)), TestData.run(3, day(2) + 1)));
    RetentionTask task = new RetentionTask(store, Duration.ofDays(14), clock);

    clock.set(DAY_0.plus(Duration.ofDays(14)));
    assertThat(task.runOnce()).isZero();
    assertThat(store.runs(RunQuery.all())).hasSize(3);

    clock.set(DAY_0.plus(Duration.ofDays(15)));
    task.runOnce();
    assertThat(store.runs(RunQuery.all()))
        .extracting(r -> r.run().sequence())
        .containsExactly(2L, 3L);

    clock.set(DAY_0.plus(Duration.ofDays(16)).plusMillis(1));
    task.runOnce();
    assertThat(store.runs(RunQuery.all())).extracting(r -> r.run().sequence()).containsExactly(3L);
  }

  @Test
  void scheduledPassRunsAtOnceAndSurvivesAFailure() throws Exception {
    store.putRuns(ORIGIN, List.of(TestData.run(1, day(0))));
    clock.set(DAY_0.plus(Duration.ofDays(30)));
    ScheduledExecutorService scheduler = Executors.newSingleThreadScheduledExecutor();
    try {
      ScheduledFuture<?> scheduled =
          new RetentionTask(store, Duration.ofDays(14), clock).schedule(scheduler);
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
      while (!store.runs(RunQuery.all()).isEmpty() && System.nanoTime() < deadline) {
        Thread.onSpinWait();
      }
      assertThat(store.runs(RunQuery.all())).isEmpty();
      assertThat(scheduled.getDelay(TimeUnit.MINUTES)).isBetween(50L, 60L);
    } finally {
      scheduler.shutdownNow();
    }
    // A failing store is logged, not thrown: the schedule would otherwise stop for good.
    store.close();
    new RetentionTask(store, Duration.ofDays(14), clock).run();
  }

  /** A clock the test moves by hand. */
  private static final class MovableClock extends Clock {
    private volatile Instant now;

    MovableClock(Instant now) {
      this.now = now;
    }

    void set(Instant value) {
      now = value;
    }

    @Override
    public ZoneId getZone() {
      return ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(ZoneId zone) {
      return this;
    }

    @Override
    public Instant instant() {
      return now;
    }
  }
}
