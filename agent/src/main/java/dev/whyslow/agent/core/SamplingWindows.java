package dev.whyslow.agent.core;

import dev.whyslow.agent.bootstrap.AgentErrors;
import dev.whyslow.agent.bootstrap.Entries;
import dev.whyslow.agent.bootstrap.Units;
import dev.whyslow.agent.config.SamplingWindowSettings;
import java.util.function.BooleanSupplier;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

/**
 * Keeps the probes of the service's methods in use for one window of every period, once the service
 * has settled, and closes the entries in between ({@link Entries#open}): closed, every instrumented
 * method runs its own code, as javac wrote it, after one test of a static flag. Every entry's
 * choice between a method's own code and its copies (a thread-state lookup and a countdown step)
 * cost the example shop's requests about half of what the agent added as a service, and no cheaper
 * form of it came near the 2 % budget (bench/LATENCY.md). Units stay timed and typed while the
 * entries are closed: a guard method's entry still answers whether its unit needs the guard.
 *
 * <p>Inside a window the rate and the share of invocations that run their probes are raised by the
 * period over the window ({@link SamplingPlan#raiseBy}), until every invocation runs them: the
 * sampled invocations a unit type gathers over time, and the samples in each, stay about those of
 * the configured rate throughout, only gathered in bursts.
 *
 * <p>The first window starts once the units' guards infer by site (or units are off) and the JIT
 * has settled; the entries, open from the start, stay open for that window. Polled about once a
 * second by the agent's background thread.
 */
final class SamplingWindows {
  /** Closes the instrumented methods' entries between windows and opens them for a window. */
  interface Gate {
    void close();

    void open();
  }

  enum State {
    /** Not started: the service has not settled yet. */
    WAITING,
    /** The probes are in, for a window. */
    OPEN,
    /** The entries are closed: instrumented methods run their own code. */
    DORMANT,
    /** Never (off, or a reason given once): the probes stay in. */
    OFF
  }

  private final SamplingWindowSettings settings;
  private final SamplingPlan sampling;
  private final Gate gate;
  private final Supplier<String> blockedBecause;
  private final BooleanSupplier settled;
  private final LongSupplier nanoTime;
  private final AgentLog log;
  private State state;
  private long changeAtNanos;
  private volatile long windowsOpened; // written by the background thread only
  private boolean saidDormant;

  /**
   * @param blockedBecause {@code null} while it is too early to say whether windows may start,
   *     {@code ""} when they may, else why they never will
   * @param settled whether the JIT has settled
   */
  SamplingWindows(
      SamplingWindowSettings settings,
      SamplingPlan sampling,
      Gate gate,
      Supplier<String> blockedBecause,
      BooleanSupplier settled,
      LongSupplier nanoTime,
      AgentLog log) {
    this.settings = settings;
    this.sampling = sampling;
    this.gate = gate;
    this.blockedBecause = blockedBecause;
    this.settled = settled;
    this.nanoTime = nanoTime;
    this.log = log;
    this.state = settings.enabled() ? State.WAITING : State.OFF;
  }

  State state() {
    return state;
  }

  /** Windows opened so far. */
  long windowsOpened() {
    return windowsOpened;
  }

  /** Moves to the next form when it is due. */
  void poll() {
    try {
      switch (state) {
        case WAITING -> start();
        case OPEN -> {
          if (nanoTime.getAsLong() - changeAtNanos >= 0) {
            close();
          }
        }
        case DORMANT -> {
          if (nanoTime.getAsLong() - changeAtNanos >= 0) {
            open();
          }
        }
        case OFF -> {}
      }
    } catch (Throwable t) {
      AgentErrors.report("the sampling windows", t);
      stop("they failed (" + t + ") in state " + state);
    }
  }

  private void start() {
    String blocked = blockedBecause.get();
    if (blocked == null) {
      return;
    }
    if (!blocked.isEmpty()) {
      state = State.OFF;
      log.info("sampling windows off: " + blocked + "; the probes stay in all the time");
      return;
    }
    if (settled.getAsBoolean()) {
      // The entries are open already: the first window needs no change.
      log.info(
          "sampling windows: the probes stay in for "
              + settings
              + ", the instrumented methods run their own code in between (sampling.windows)");
      startWindow();
    }
  }

  private void close() {
    sampling.raiseBy(1);
    Units.setCodeDormant(true);
    gate.close();
    state = State.DORMANT;
    changeAtNanos = nanoTime.getAsLong() + (settings.everyMillis() - settings.windowMillis()) * MS;
    if (!saidDormant) {
      saidDormant = true;
      log.info("instrumented methods run their own code until the next sampling window");
    }
  }

  private void open() {
    gate.open();
    startWindow();
  }

  private void startWindow() {
    Units.setCodeDormant(false);
    sampling.raiseBy(settings.raise());
    state = State.OPEN;
    windowsOpened++;
    changeAtNanos = nanoTime.getAsLong() + settings.windowMillis() * MS;
  }

  private void stop(String why) {
    state = State.OFF;
    gate.open();
    Units.setCodeDormant(false);
    log.warn("sampling windows stopped: " + why + "; the probes stay in use all the time");
  }

  private static final long MS = 1_000_000L;
}
