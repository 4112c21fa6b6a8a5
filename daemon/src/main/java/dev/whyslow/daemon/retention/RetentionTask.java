package dev.whyslow.daemon.retention;

import dev.whyslow.storage.WhyslowStore;
import java.lang.System.Logger.Level;
import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * Deletes runs, unit statistics and violations older than the retention ({@code retention.days})
 * once an hour. Time comes from the injected {@link Clock} and the schedule from the injected
 * executor, so tests move the clock and call {@link #runOnce()} instead of waiting.
 */
public final class RetentionTask implements Runnable {
  private static final System.Logger LOG = System.getLogger(RetentionTask.class.getName());

  /** How often retention runs. */
  public static final Duration PERIOD = Duration.ofHours(1);

  private final WhyslowStore store;
  private final Duration retention;
  private final Clock clock;

  public RetentionTask(WhyslowStore store, Duration retention, Clock clock) {
    if (retention.isNegative() || retention.isZero()) {
      throw new IllegalArgumentException("retention must be positive, was " + retention);
    }
    this.store = store;
    this.retention = retention;
    this.clock = clock;
  }

  /** Schedules {@link #run()} now and then every {@link #PERIOD}. */
  public ScheduledFuture<?> schedule(ScheduledExecutorService scheduler) {
    return scheduler.scheduleAtFixedRate(this, 0, PERIOD.toMillis(), TimeUnit.MILLISECONDS);
  }

  /** Deletes what is older than now minus the retention; returns the store's estimate. */
  public long runOnce() {
    long cutoff = clock.millis() - retention.toMillis();
    long deleted = store.deleteRunsBefore(cutoff);
    long stats = store.deleteUnitStatsBefore(cutoff);
    long violations = store.deleteViolationsBefore(cutoff);
    LOG.log(
        Level.DEBUG,
        "retention: deleted about {0} runs, {1} unit statistics and {2} violations before {3}",
        deleted,
        stats,
        violations,
        cutoff);
    return deleted;
  }

  @Override
  public void run() {
    try {
      runOnce();
    } catch (RuntimeException e) {
      // Keep the schedule alive: a failed pass is retried in an hour.
      LOG.log(Level.ERROR, "retention pass failed; will retry in " + PERIOD, e);
    }
  }
}
