package dev.whyslow.agent.core;

import dev.whyslow.agent.bootstrap.AgentErrors;
import dev.whyslow.agent.bootstrap.Probes;
import dev.whyslow.agent.config.WindowSettings;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * Opens and closes the sampling windows ({@link WindowSettings}): a window stays open for the
 * configured length, and the gaps between windows are drawn from an exponential distribution, so
 * window starts are a Poisson process that no periodic behaviour of the service can line up with.
 * Each gap is corrected by how far the time spent open so far is from the duty, so late wake-ups on
 * a busy machine do not raise the share of evaluations recorded.
 *
 * <p>It owns the sampling rate and the kill switch: at a rate where windows are used, threads draw
 * at the rate over the duty and the window cycles; otherwise the window stays open and threads draw
 * at the rate itself; killed, the window stays closed, so instrumented methods run their own code.
 */
final class SamplingWindows implements Runnable {
  private final WindowSettings settings;
  private final SplittableRandom random = new SplittableRandom();
  private boolean cycling;
  private boolean enabled = true;
  private double rate;
  private Thread thread;

  /**
   * @param settings as configured; windows are used only if they are at the start rate, since only
   *     then are classes instrumented with the copies that windows switch between: a JVM started at
   *     a high rate keeps its window open whatever rate the daemon sets later
   * @param startRate the configured rate
   */
  SamplingWindows(WindowSettings settings, double startRate) {
    this.settings =
        settings.usedAt(startRate)
            ? settings
            : new WindowSettings(false, settings.duty(), settings.lengthMicros());
  }

  /**
   * Sets the share of evaluations recorded.
   *
   * @throws IllegalArgumentException when it is not a rate in [1e-6, 1]
   */
  synchronized void setRate(double newRate) {
    boolean windowed = settings.usedAt(newRate);
    Probes.setSamplingRate(newRate, windowed ? newRate / settings.duty() : newRate);
    rate = newRate;
    apply();
  }

  /** The kill switch: off closes the window for good, until switched on again. */
  synchronized void setEnabled(boolean on) {
    enabled = on;
    Probes.setEnabled(on);
    apply();
  }

  /** Whether the window cycles now, rather than staying open or closed. */
  synchronized boolean cycling() {
    return cycling;
  }

  private void apply() {
    cycling = enabled && settings.usedAt(rate);
    if (!enabled) {
      Probes.closeWindow();
    } else if (!cycling) {
      Probes.openWindow();
    } else if (thread == null) {
      thread = new Thread(this, "whyslow-windows");
      thread.setDaemon(true);
      thread.start();
    }
    notifyAll();
  }

  @Override
  public void run() {
    try {
      Probes.markAgentThread();
      long openNanos = 0;
      long closedNanos = 0;
      long length = TimeUnit.MICROSECONDS.toNanos(settings.lengthMicros());
      double meanGap = length * (1 - settings.duty()) / settings.duty();
      while (true) {
        // The gap that keeps the open share at the duty so far, plus an exponential draw.
        double owed = openNanos * (1 - settings.duty()) / settings.duty() - closedNanos;
        double drawn = -meanGap * Math.log(1.0 - random.nextDouble());
        long gap = (long) Math.max(0, Math.min(owed + drawn, 20 * meanGap));
        synchronized (this) {
          while (!cycling) {
            wait();
          }
          Probes.closeWindow();
        }
        closedNanos += sleep(gap);
        synchronized (this) {
          if (!cycling) {
            continue; // apply() set the window as it should stay
          }
          Probes.openWindow();
        }
        openNanos += sleep(length);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (Throwable t) {
      AgentErrors.report("the sampling windows' thread", t);
    }
  }

  /** Sleeps about {@code nanos}; returns how long it really slept. */
  private static long sleep(long nanos) {
    long start = System.nanoTime();
    long deadline = start + nanos;
    long now = start;
    while (now < deadline) {
      LockSupport.parkNanos(deadline - now);
      now = System.nanoTime();
    }
    return now - start;
  }
}
