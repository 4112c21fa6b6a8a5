package dev.whyslow.agent.core;

import dev.whyslow.agent.bootstrap.AgentErrors;
import dev.whyslow.agent.bootstrap.Probes;
import dev.whyslow.agent.bootstrap.Units;
import dev.whyslow.agent.config.UnitSettings;
import dev.whyslow.protocol.UnitStats;
import java.util.concurrent.locks.LockSupport;

/**
 * The units' background thread: every {@code units.watchdog.interval} it checks running units
 * against their thresholds ({@link Units#watch}); at least every {@value #MAX_TICK_MILLIS} ms, and
 * sooner when {@link #wakeUp} says runs pile up, it builds and sends the runs of the units that
 * ended, sends the violations found and trains (or audits); every {@code units.stats.interval} it
 * sends the interval's histograms. Training runs here, never on an application thread.
 */
final class UnitWorker implements Runnable {
  private final UnitSettings settings;
  private final UnitRecorder recorder;
  private final UnitOutput output;
  private final Runnable everyTick;
  private volatile boolean stopping;
  private volatile Thread thread;

  /**
   * @param everyTick also run on each watchdog tick (training and audit bookkeeping)
   */
  UnitWorker(UnitSettings settings, UnitRecorder recorder, UnitOutput output, Runnable everyTick) {
    this.settings = settings;
    this.recorder = recorder;
    this.output = output;
    this.everyTick = everyTick;
  }

  synchronized void start() {
    if (thread == null) {
      thread = new Thread(this, "whyslow-units");
      thread.setDaemon(true);
      thread.start();
    }
  }

  /**
   * Longest pause between ticks: training and violations should not wait for a slow watchdog. A
   * second, not less: every tick wakes this thread and, with what it queues, the transport's, and
   * on a service that runs on one core each wake-up takes the core from a request
   * (bench/LATENCY.md, "The agent's own threads"). Runs that pile up faster wake it early ({@link
   * #wakeUp}).
   */
  static final long MAX_TICK_MILLIS = 1_000;

  @Override
  public void run() {
    Probes.markAgentThread();
    long watchNanos = settings.watchdogIntervalMillis() * 1_000_000L;
    long nextStats = System.nanoTime() + settings.statsIntervalMillis() * 1_000_000L;
    long nextWatch = System.nanoTime() + watchNanos;
    while (!stopping) {
      // Parks rather than waits on a monitor, so that an application thread can wake it without
      // taking a lock; a spurious or early return only makes this tick come sooner. The pause
      // ends at the watchdog's next pass at the latest, so the watchdog keeps its interval.
      long untilWatch = nextWatch - System.nanoTime();
      if (untilWatch > 0) {
        LockSupport.parkNanos(this, Math.min(MAX_TICK_MILLIS * 1_000_000L, untilWatch));
      }
      if (Thread.interrupted()) {
        return;
      }
      long now = System.nanoTime();
      if (now - nextWatch >= 0) {
        nextWatch = now + watchNanos;
        watch(now);
      }
      tick();
      if (now - nextStats >= 0) {
        nextStats = now + settings.statsIntervalMillis() * 1_000_000L;
        sendStats();
      }
    }
  }

  /**
   * Makes the thread tick now rather than at its next pause's end; lock-free, for the application
   * thread whose unit found the runs piling up.
   */
  void wakeUp() {
    Thread t = thread;
    if (t != null) {
      LockSupport.unpark(t);
    }
  }

  /** One watchdog pass. */
  void watch(long nowNanos) {
    try {
      Units.watch(nowNanos);
    } catch (Throwable t) {
      AgentErrors.report("the unit watchdog", t);
    }
  }

  /** Sends the runs of units that ended and the violations found; the training's bookkeeping. */
  void tick() {
    try {
      recorder.flushRuns();
      recorder.flushViolations();
      everyTick.run();
    } catch (Throwable t) {
      AgentErrors.report("the units' background thread", t);
    }
  }

  /** Sends the interval's histograms, if any unit ended in it. */
  void sendStats() {
    try {
      UnitStats stats = recorder.drainStats(System.currentTimeMillis());
      if (stats != null) {
        output.offerMessage(stats);
      }
    } catch (Throwable t) {
      AgentErrors.report("sending unit statistics", t);
    }
  }

  /** At exit: stops the thread and sends what is left. */
  void stopAndFlush() {
    stopping = true;
    wakeUp();
    watch(System.nanoTime());
    tick();
    sendStats();
  }
}
