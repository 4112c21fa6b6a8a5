package dev.whyslow.agent.core;

import dev.whyslow.agent.bootstrap.AgentErrors;
import dev.whyslow.agent.bootstrap.Units;
import dev.whyslow.agent.config.SamplingWindowSettings;
import dev.whyslow.agent.instrument.Dormancy;
import java.util.function.BooleanSupplier;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

/**
 * Keeps the probes in the service's classes for one window of every period, once the service has
 * settled, and lets the classes lie dormant, as written, in between ({@link Dormancy}). Every
 * instrumented method's entry chooses between its own code and its copies, and that choice cost the
 * example shop's requests some 7 % more CPU as a service, nearly all of it in what it does to the
 * JIT's inlining (bench/LATENCY.md); no cheaper shape of it came near the 2 % budget. Dormant, the
 * methods are the ones the JIT sees without the agent; units stay timed and typed, since the unit
 * wrappers and the guards' entries stay in.
 *
 * <p>Off by default ({@code sampling.windows}): on the shop, dormant classes took about 3 points
 * off the request threads' cost but left some 6 % over no agent, and each change of form cost a
 * burst of JIT work (bench/LATENCY.md, thirty-seventh session).
 *
 * <p>Inside a window the rate is raised by the period over the window ({@link
 * SamplingPlan#raiseBy}), as far as sampled invocations allow: the samples a unit type gathers over
 * time stay about those of the configured rate throughout, only gathered in bursts.
 *
 * <p>The first window starts once the units' guards infer by site (or units are off) and the JIT
 * has settled; the classes, which carried their probes from the start, keep them for that window.
 * Polled about once a second by the agent's background thread; each change of form retransforms the
 * instrumented classes in one call, which the JVM applies to all of them or none. A failed change
 * leaves the classes in the form they had and stops the windows, saying so.
 */
final class SamplingWindows {
  /** Retransforms every class the agent instrumented, returning how many. */
  interface Retransformer {
    int retransformInstrumented() throws Exception;
  }

  enum State {
    /** Not started: the service has not settled yet. */
    WAITING,
    /** The probes are in, for a window. */
    OPEN,
    /** The classes lie dormant. */
    DORMANT,
    /** Never (off, or a reason given once): the probes stay in. */
    OFF
  }

  private final SamplingWindowSettings settings;
  private final Dormancy dormancy;
  private final SamplingPlan sampling;
  private final Retransformer retransformer;
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
      Dormancy dormancy,
      SamplingPlan sampling,
      Retransformer retransformer,
      Supplier<String> blockedBecause,
      BooleanSupplier settled,
      LongSupplier nanoTime,
      AgentLog log) {
    this.settings = settings;
    this.dormancy = dormancy;
    this.sampling = sampling;
    this.retransformer = retransformer;
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
      // The classes carry their probes already: the first window needs no retransformation.
      log.info(
          "sampling windows: the probes stay in for "
              + settings
              + ", the classes lie dormant in between (sampling.windows)");
      startWindow();
    }
  }

  private void close() {
    sampling.raiseBy(1);
    Units.setCodeDormant(true);
    int classes = change(true);
    if (classes < 0) {
      Units.setCodeDormant(false);
      stop("the classes could not lie dormant; the probes stay in all the time");
      return;
    }
    state = State.DORMANT;
    changeAtNanos = nanoTime.getAsLong() + (settings.everyMillis() - settings.windowMillis()) * MS;
    if (!saidDormant) {
      saidDormant = true;
      log.info(classes + " classes lie dormant until the next sampling window");
    }
  }

  private void open() {
    if (change(false) < 0) {
      stop("the classes could not take their probes back; they stay dormant, units still timed");
      return;
    }
    startWindow();
  }

  private void startWindow() {
    Units.setCodeDormant(false);
    sampling.raiseBy(settings.raise());
    state = State.OPEN;
    windowsOpened++;
    changeAtNanos = nanoTime.getAsLong() + settings.windowMillis() * MS;
  }

  /**
   * Retransforms the classes into their dormant form or their full one; returns how many, or -1
   * when the JVM refused, which leaves every class as it was.
   */
  private int change(boolean dormant) {
    long start = System.nanoTime();
    dormancy.set(dormant);
    try {
      int classes = retransformer.retransformInstrumented();
      log.debug(
          "sampling windows: "
              + classes
              + (dormant ? " classes dormant in " : " classes with probes in ")
              + (System.nanoTime() - start) / 1_000_000
              + " ms");
      return classes;
    } catch (Throwable t) {
      dormancy.set(!dormant);
      AgentErrors.report("retransforming for the sampling windows", t);
      log.warn("sampling windows: retransforming failed: " + t);
      return -1;
    }
  }

  private void stop(String why) {
    state = State.OFF;
    log.warn("sampling windows stopped: " + why);
  }

  private static final long MS = 1_000_000L;
}
