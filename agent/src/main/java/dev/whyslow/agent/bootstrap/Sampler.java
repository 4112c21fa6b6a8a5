package dev.whyslow.agent.bootstrap;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * The probes' sampled path: records the evaluation that the countdown selected into the thread's
 * run and draws the next countdown. It is re-entrancy safe (probes hit while it runs are ignored),
 * silent on agent threads, and never throws: a failure is counted in {@link AgentErrors}.
 */
final class Sampler {
  /** Sign of a NaN return: only "!= 0" holds. */
  static final int NAN = 2;

  private static final VarHandle SAMPLES;

  static {
    try {
      SAMPLES = MethodHandles.lookup().findStaticVarHandle(Sampler.class, "samples", long.class);
    } catch (ReflectiveOperationException e) {
      throw new ExceptionInInitializerError(e);
    }
  }

  @SuppressWarnings("unused") // accessed through SAMPLES
  private static volatile long samples;

  private Sampler() {}

  static long samplesRecorded() {
    return (long) SAMPLES.getVolatile();
  }

  /** Forgets the warm-up's samples; only {@link Probes#warmUp} calls it, before any real one. */
  static void resetSamples() {
    SAMPLES.setVolatile(0L);
  }

  /**
   * Brings a thread up to date with the rate and the kill switch after {@link Probes#generation}.
   */
  static void resync(ThreadState s) {
    s.generation = Probes.generation;
    s.sampledAt = Integer.MIN_VALUE;
    if (!Probes.enabled || s.agent) {
      s.countdown = Integer.MAX_VALUE;
      s.invocations = Integer.MAX_VALUE;
    } else {
      s.countdown = s.draw(Probes.rate);
      s.invocations = s.draw(Probes.invocationRate);
      // A choice for the invocations that follow the last one (Entries.followingEntry) until this
      // thread makes one: a new thread, or one after a rate change, has made none, and its short
      // methods must still run their probes with the share, not never.
      double u = (s.nextLong() >>> 11) * 0x1.0p-53;
      if (u < Probes.invocationShare) {
        s.sampledAt = s.invocations;
      }
    }
  }

  /**
   * {@link Entries#entry}'s countdown of invocations ran out: this invocation runs its copy with
   * probes, and the next such invocation is drawn. Killed, or on an agent thread, none does.
   */
  static int sampledInvocation(ThreadState s) {
    if (s.generation != Probes.generation) {
      // A rate change or the kill switch since this thread last looked: a fresh countdown
      // decides this invocation too, so that it is sampled with the new share, no more often.
      resync(s);
      if (--s.invocations > 0) {
        return s.unsampled;
      }
    }
    if (!Probes.enabled || s.agent) {
      s.invocations = Integer.MAX_VALUE; // until the switch is on again (a resync)
      s.sampledAt = Integer.MIN_VALUE;
      return s.unsampled;
    }
    s.invocations = s.draw(Probes.invocationRate);
    if (s.busy) {
      // Instrumented code called by the sampled path itself: this invocation's turn is dropped,
      // and the countdown goes on for the application's invocations.
      s.sampledAt = Integer.MIN_VALUE;
      return s.unsampled;
    }
    s.sampledAt = s.invocations;
    return Probes.PROBES;
  }

  /**
   * As {@link #sampledInvocation}, for a guard method ({@link Entries#guardEntry}): what it runs
   * when not sampled is {@link ThreadState#guardUnsampled}.
   */
  static int sampledGuardInvocation(ThreadState s) {
    return sampledInvocation(s) == Probes.PROBES ? Probes.PROBES : s.guardUnsampled;
  }

  /**
   * As {@link #sampledInvocation}, for a method without a depth-only copy: {@link Probes#PROBES} or
   * {@link Probes#OWN}, inside a unit too. Out of {@link Entries#sampledEntry} so that it stays
   * within the 31 bytes C1 inlines into a method it has inlined itself.
   */
  static int sampledOrOwn(ThreadState s) {
    return sampledInvocation(s) == Probes.PROBES ? Probes.PROBES : Probes.OWN;
  }

  /**
   * Records predicate {@code predicate} true at the two-predicate site at {@code slot}; returns the
   * next countdown, also left in {@link ThreadState#countdown}.
   */
  static int outcome(ThreadState s, int slot, int predicate) {
    if (s.busy) {
      // A probe inside our own sampled path: the outer call draws the next countdown, and the
      // inner method's local countdown must not bring it back here meanwhile.
      return Integer.MAX_VALUE;
    }
    s.busy = true;
    try {
      RunCounts run = target(s, slot);
      if (run != null) {
        int site = slot & ~Probes.CHECK_SHARE;
        run.increment(site);
        run.increment(site + 1 + predicate);
        SAMPLES.getAndAdd(1L);
      }
    } catch (Throwable t) {
      AgentErrors.report("the sampled path of a probe", t);
    } finally {
      next(s);
      s.busy = false;
    }
    return s.countdown;
  }

  /**
   * Records the six sign predicates ({@code <0, <=0, >0, >=0, ==0, !=0}) of a numeric return with
   * the given sign (-1, 0, 1, or {@link #NAN}); a scalar pair passes the sign of {@code new -
   * other}, so the same six read {@code new < other} and so on. Returns the next countdown, as
   * {@link #outcome}.
   */
  static int sign(ThreadState s, int slot, int sign) {
    if (s.busy) {
      return Integer.MAX_VALUE;
    }
    s.busy = true;
    try {
      RunCounts run = target(s, slot);
      if (run != null) {
        int site = slot & ~Probes.CHECK_SHARE;
        run.increment(site);
        int first = site + 1;
        if (sign < 0) {
          run.increment(first); // < 0
          run.increment(first + 1); // <= 0
          run.increment(first + 5); // != 0
        } else if (sign == 0) {
          run.increment(first + 1); // <= 0
          run.increment(first + 3); // >= 0
          run.increment(first + 4); // == 0
        } else if (sign == 1) {
          run.increment(first + 2); // > 0
          run.increment(first + 3); // >= 0
          run.increment(first + 5); // != 0
        } else {
          run.increment(first + 5); // NaN: only != 0
        }
        SAMPLES.getAndAdd(1L);
      }
    } catch (Throwable t) {
      AgentErrors.report("the sampled path of a probe", t);
    } finally {
      next(s);
      s.busy = false;
    }
    return s.countdown;
  }

  /**
   * The run to record into, or {@code null} when this evaluation must not be recorded: on an agent
   * thread, with the kill switch off, or at a site marked {@link Probes#CHECK_SHARE} between
   * sampling windows or unless a draw with the invocation share keeps it.
   */
  private static RunCounts target(ThreadState s, int slot) {
    if (s.agent || !Probes.enabled) {
      return null;
    }
    if (slot < 0) {
      if (!Entries.open()) {
        // Between sampling windows every other site is silent: this one, which keeps its probes
        // inline, must be too, or it would be recorded more often than the rate says.
        return null;
      }
      double share = Probes.invocationShare;
      if (share < 1.0 && ((s.nextLong() >>> 11) * 0x1.0p-53) >= share) {
        return null;
      }
    }
    RunCounts run = s.currentRun;
    return run != null ? run : Probes.processRun;
  }

  /**
   * Draws the next countdown of evaluations after a sample. The countdown of invocations goes on as
   * it is (both are geometric, so drawing it again would change nothing but the cost: a second
   * logarithm at every sample); a rate change or the kill switch since the last look resyncs both.
   */
  private static void next(ThreadState s) {
    try {
      if (s.generation == Probes.generation && Probes.enabled && !s.agent) {
        s.countdown = s.draw(Probes.rate);
      } else {
        resync(s);
      }
    } catch (Throwable t) {
      s.countdown = Integer.MAX_VALUE;
    }
  }
}
