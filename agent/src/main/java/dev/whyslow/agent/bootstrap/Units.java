package dev.whyslow.agent.bootstrap;

/**
 * Units of work as instrumented code sees them. The agent's wrappers call {@link #begin}/{@link
 * #end} around entry points (handlers, executor tasks), {@link #beforeWait}/{@link #afterWait}
 * around the wait call of an event loop, and every depth-counted method calls {@link #enter} at
 * entry. Nested entry points do not start a second unit: the innermost names it and becomes the
 * depth base, the time runs from the outermost start. Nothing here throws into the application or
 * allocates per unit on the common path; java.lang only, as everything in this package.
 */
public final class Units {
  /** Frames of these classes at the top of a captured stack are the capture itself. */
  private static final String UNITS = "dev.whyslow.agent.bootstrap.Units";

  private static final String API = "dev.whyslow.agent.bootstrap.Whyslow";

  /** The deepest stack a violation carries ({@code Violation.MAX_FRAMES}). */
  public static final int MAX_FRAMES = 128;

  /** Method entries one traced unit keeps; later ones are dropped and the trace marked. */
  public static final int TRACE_CAPACITY = 4096;

  private static volatile UnitListener listener;

  /** The trained context table and types, or {@code null} before the first training. */
  private static volatile UnitModel model;

  /**
   * The model whose guard methods call {@link Entries#guardEntry}, when its guards need no depth
   * ({@link ContextTable#depthTellsNothing}): units that start with it count only the guards'
   * frames, the rest of their code runs as outside units. {@code null}: every frame is counted.
   */
  private static volatile UnitModel guardsWithoutDepth;

  /**
   * Whether the instrumented methods' entries are closed between sampling windows ({@link
   * Entries#open}): then no frame but the guards' counts depth, so event loops' units, which
   * otherwise count every frame, infer by site as well. Set only once {@link
   * #countDepthOnlyWhereNeeded} holds.
   */
  private static volatile boolean codeDormant;

  /** Units traced for training: a unit is traced when a 31-bit draw is below this; 0 = none. */
  private static volatile int traceBelow;

  /** Whether units are chosen whole ({@link #chooseUnits}). */
  private static volatile boolean choosing;

  private static UnitState[] states = new UnitState[16];
  private static int stateCount;

  private static final ClassValue<String> TASK_NAMES =
      new ClassValue<String>() {
        @Override
        protected String computeValue(Class<?> type) {
          return taskName(type.getName());
        }
      };

  private Units() {}

  /** Turns units on, reporting to {@code l}; {@code null} turns them off. */
  public static void install(UnitListener l) {
    listener = l;
  }

  /**
   * Turns guards on with a trained model; units started from now on infer their type (a running
   * unit keeps the model it started with, so method entries never read this volatile field).
   */
  public static void publish(UnitModel trained) {
    model = trained;
  }

  /**
   * Units that start from now on with {@code m} count depth only in its guard methods, which the
   * caller has made call {@link Entries#guardEntry}, and in the copies of sampled invocations; a
   * traced unit and an event loop's unit still count every frame (a trace needs each method's
   * depth, and a loop's unit ends at its own method's exit, found by depth). {@code null} goes back
   * to counting every frame.
   *
   * @throws IllegalArgumentException when {@code m}'s guards need the depth
   */
  public static void countDepthOnlyWhereNeeded(UnitModel m) {
    if (m != null && !m.table.depthTellsNothing()) {
      throw new IllegalArgumentException("this model's guards tell unit types apart by depth");
    }
    guardsWithoutDepth = m;
    if (m == null) {
      codeDormant = false;
    }
  }

  /**
   * Tells units started from now on that the instrumented methods' entries are closed ({@code
   * true}) or open again. Meant for when units infer by site ({@link #countDepthOnlyWhereNeeded})
   * or are off: units that count every frame would find the guards at depths no training saw.
   */
  public static void setCodeDormant(boolean dormant) {
    codeDormant = dormant;
  }

  /**
   * Units that start from now on are chosen whole ({@code true}), with probability {@link
   * Probes#invocationShare()}, or not at all: a chosen unit runs the copies with probes from its
   * roots down ({@link Entries#worldEntry}), every other unit the code javac wrote. A traced unit
   * is always chosen, since only the copies count the depth its trace needs. Meant for when the
   * instrumented classes have been retransformed into the form where a copy calls copies.
   */
  public static void chooseUnits(boolean choose) {
    choosing = choose;
  }

  /** The model the guards use, or {@code null}. */
  public static UnitModel model() {
    return model;
  }

  /** The share of units whose method entries are traced, in [0, 1]. */
  public static void setTraceShare(double share) {
    double clamped = share <= 0 ? 0 : share >= 1 ? 1 : share;
    traceBelow = clamped >= 1 ? Integer.MAX_VALUE : (int) (clamped * Integer.MAX_VALUE);
  }

  /** Initialises and links the unit classes, so the first unit never does it; see Probes.warmUp. */
  static void warmUp(ThreadState s) {
    int depth = s.depth;
    enter(s, 0);
    s.depth = depth;
    UnitState scratch = new UnitState(Thread.currentThread());
    scratch.publish(1);
    scratch.claim(1, 1);
    scratch.counts.increment(1);
    scratch.counts.clear();
    UnitType.setThresholds(new long[0]);
    new UnitType("warm-up", 0, null).thresholdNanos();
    taskName(TASK_NAMES.get(Units.class));
    snapshot();
  }

  // ---- called by instrumented code ----

  /**
   * At the entry of every depth-counted method, whatever word of the watched bits its id falls in:
   * what instrumented code does through {@link UnitEntries}, for tests and benchmarks.
   */
  public static int enter(ThreadState s, int methodId) {
    switch ((methodId >>> 6) & 3) {
      case 0:
        return UnitEntries.enter0(s, methodId);
      case 1:
        return UnitEntries.enter1(s, methodId);
      case 2:
        return UnitEntries.enter2(s, methodId);
      default:
        return UnitEntries.enter3(s, methodId);
    }
  }

  /** An entry point's body starts ({@code Class.method} names it). */
  public static void begin(String entryPoint) {
    begin(entryPoint, UnitState.ENTRY);
  }

  /** An executor task's {@code run()} is about to be called. */
  public static void beginTask(Object task) {
    if (listener == null || task == null) {
      return;
    }
    try {
      begin(TASK_NAMES.get(task.getClass()), UnitState.ENTRY);
    } catch (Throwable t) {
      AgentErrors.report("starting an executor task's unit", t);
    }
  }

  /** The entry point's body returned or threw. */
  public static void end() {
    try {
      if (listener == null) {
        return;
      }
      ThreadState s = Probes.state();
      UnitState u = s.unitState;
      if (u == null || s.busy) {
        return;
      }
      if (u.nest > 0) {
        u.nest--;
      }
      if (u.nest == 0 && u.active) {
        finish(s, u, System.nanoTime());
      }
    } catch (Throwable t) {
      AgentErrors.report("ending a unit", t);
    }
  }

  /** An event loop is about to wait for work: waiting is never part of a unit. */
  public static void beforeWait() {
    try {
      if (listener == null) {
        return;
      }
      ThreadState s = Probes.state();
      UnitState u = s.unitState;
      if (u != null && u.active && !s.busy) {
        finish(s, u, System.nanoTime());
      }
    } catch (Throwable t) {
      AgentErrors.report("ending a unit before a wait", t);
    }
  }

  /** The wait of the event loop in {@code loop} returned: the next iteration is a unit. */
  public static void afterWait(String loop) {
    begin(loop, UnitState.LOOP);
  }

  /** A method with a wrapped wait loop returns: the loop's last unit ends with it. */
  public static void loopExit() {
    try {
      if (listener == null) {
        return;
      }
      ThreadState s = Probes.state();
      UnitState u = s.unitState;
      if (u != null && u.active && u.kind == UnitState.LOOP && u.baseDepth >= s.depth) {
        finish(s, u, System.nanoTime());
      }
    } catch (Throwable t) {
      AgentErrors.report("ending a loop's unit", t);
    }
  }

  static void begin(String entryPoint, int kind) {
    try {
      UnitListener l = listener;
      if (l == null) {
        return;
      }
      ThreadState s = Probes.state();
      if (s.agent || s.busy) {
        return;
      }
      UnitState u = s.unitState;
      if (u == null) {
        u = register(s);
      }
      if (u.active && s.depth < u.baseDepth) {
        // Its entry frame is gone without an end (an exception out of a loop, a forgotten
        // unitEnd): it ends now rather than run on forever.
        finish(s, u, System.nanoTime());
      }
      if (kind != UnitState.LOOP) {
        u.nest++;
      }
      if (u.active) {
        if (kind != UnitState.LOOP) {
          rebase(s, u, entryPoint, kind, l);
        }
        return;
      }
      start(s, u, entryPoint, kind, l);
    } catch (Throwable t) {
      AgentErrors.report("starting a unit", t);
    }
  }

  // ---- the rest runs only inside units ----

  static void entered(ThreadState s, int methodId, int depth) {
    if (s.busy) {
      return; // the agent's own work inside the unit (a listener call) is neither traced nor
      // guarded
    }
    UnitState u = s.unit;
    if (u == null) {
      return;
    }
    if (u.tracing) {
      u.trace(methodId, depth - u.baseDepth);
    }
    UnitModel m = u.model;
    if (m != null) {
      int guard = m.table.guardIdOf(methodId);
      if (guard >= 0) {
        guard(s, u, m, guard, depth - u.baseDepth);
      }
    }
  }

  /**
   * A guard: the context (guard, relative depth) adds hits to its candidate types, the unit's type
   * becomes the best so far, and a unit already over that type's threshold is a violation.
   */
  private static void guard(ThreadState s, UnitState u, UnitModel m, int guard, int relativeDepth) {
    if (s.busy) {
      return;
    }
    try {
      TypeInference inference = u.inference;
      if (inference == null || u.inferenceModel != m) {
        inference = new TypeInference(Math.max(1, m.typeCount()));
        u.inference = inference;
        u.inferenceModel = m;
      }
      inference.hit(
          u.everyFrame
              ? m.table.candidates(guard, relativeDepth)
              : m.table.candidatesAtAnyDepth(guard));
      int best = inference.best(m.thresholds());
      if (best < 0) {
        return;
      }
      UnitType type = m.types[best];
      u.bestType = type;
      long threshold = type.thresholdNanos();
      if (threshold == UnitType.NO_THRESHOLD) {
        return;
      }
      long elapsed = System.nanoTime() - u.startNanos;
      long unit = u.unclaimedUnit();
      if (elapsed > threshold && unit != 0) {
        UnitListener l = listener;
        boolean wasBusy = s.busy;
        s.busy = true;
        try {
          long runSequence = l.nextRunSequence();
          if (u.claim(unit, runSequence)) {
            l.violation(
                u, type, elapsed, threshold, 1, stackOf(Thread.currentThread()), runSequence);
          }
        } finally {
          s.busy = wasBusy;
        }
      }
    } catch (Throwable t) {
      AgentErrors.report("a guard", t);
    }
  }

  private static void resetInference(UnitState u) {
    u.bestType = null;
    if (u.inference != null) {
      u.inference.reset();
    }
  }

  private static void start(
      ThreadState s, UnitState u, String entryPoint, int kind, UnitListener l) {
    UnitType type = typeOf(s, l, entryPoint);
    u.kind = kind;
    u.entryPoint = entryPoint;
    u.entryType = type;
    resetInference(u);
    u.baseDepth = s.depth;
    u.model = model;
    u.counts.clear();
    u.traceLength = 0;
    u.traceOverflow = false;
    int below = traceBelow;
    u.tracing = below != 0 && (int) (s.nextLong() >>> 33) < below;
    if (u.tracing && u.traceIds == null) {
      u.traceIds = new int[TRACE_CAPACITY];
      u.traceDepths = new int[TRACE_CAPACITY];
    } else if (below == 0 && u.traceIds != null) {
      u.traceIds = null; // training is over and nothing is audited: give the buffers back
      u.traceDepths = null;
    }
    u.savedRun = s.currentRun;
    s.currentRun = u.counts;
    u.active = true;
    u.startEpochMillis = System.currentTimeMillis();
    u.startNanos = System.nanoTime();
    u.publish(++u.unitSeq);
    u.everyFrame =
        u.tracing
            || (kind == UnitState.LOOP && !codeDormant)
            || u.model == null
            || u.model != guardsWithoutDepth;
    s.startUnit(u, u.watchedEntries(), u.everyFrame, choosing && (u.tracing || chosen(s)));
  }

  /** A unit chosen with the share of sampled invocations, by this thread's random stream. */
  private static boolean chosen(ThreadState s) {
    return Probes.enabled && ((s.nextLong() >>> 11) * 0x1.0p-53) < Probes.invocationShare;
  }

  /** A nested entry point: it names the unit and its depth is the base from now on. */
  private static void rebase(
      ThreadState s, UnitState u, String entryPoint, int kind, UnitListener l) {
    u.entryType = typeOf(s, l, entryPoint);
    u.entryPoint = entryPoint;
    u.kind = kind;
    u.baseDepth = s.depth;
    resetInference(u);
    u.traceLength = 0;
    u.traceOverflow = false;
  }

  private static UnitType typeOf(ThreadState s, UnitListener l, String name) {
    boolean wasBusy = s.busy;
    s.busy = true;
    try {
      return l.typeOf(name);
    } finally {
      s.busy = wasBusy;
    }
  }

  private static void finish(ThreadState s, UnitState u, long now) {
    s.endUnit();
    s.currentRun = u.savedRun;
    u.savedRun = null;
    u.active = false;
    u.nest = 0;
    boolean wasBusy = s.busy;
    s.busy = true;
    try {
      long elapsed = now - u.startNanos;
      UnitType type = u.currentType();
      long threshold = type.thresholdNanos();
      long runSequence = u.claimedRunSequence();
      UnitListener l = listener;
      if (l == null) {
        return;
      }
      if (runSequence == 0 && threshold != UnitType.NO_THRESHOLD && elapsed > threshold) {
        long candidate = l.nextRunSequence();
        if (u.claim(u.unitSeq, candidate)) {
          runSequence = candidate;
          l.violation(u, type, elapsed, threshold, 2, stackOf(Thread.currentThread()), runSequence);
        } else {
          runSequence = u.claimedRunSequence();
        }
      }
      l.unitEnded(u, type, elapsed, runSequence != 0, runSequence);
    } catch (Throwable t) {
      AgentErrors.report("ending a unit", t);
    } finally {
      u.publish(0);
      u.counts.clear();
      u.traceLength = 0;
      u.tracing = false;
      s.busy = wasBusy;
    }
  }

  // ---- the watchdog ----

  /**
   * Checks every thread's running unit against its type's threshold and reports those over it that
   * nobody reported yet, with their thread's stack. Called by the agent's watchdog thread; also
   * forgets the units of threads that died.
   */
  public static void watch(long nowNanos) {
    UnitListener l = listener;
    if (l == null) {
      return;
    }
    for (UnitState u : snapshot()) {
      try {
        long unit = u.unclaimedUnit();
        if (unit == 0) {
          continue;
        }
        UnitType type = u.currentType();
        long threshold = type == null ? UnitType.NO_THRESHOLD : type.thresholdNanos();
        long elapsed = nowNanos - u.startNanos;
        if (threshold == UnitType.NO_THRESHOLD || elapsed <= threshold) {
          continue;
        }
        long runSequence = l.nextRunSequence();
        if (u.claim(unit, runSequence)) {
          l.violation(u, type, elapsed, threshold, 3, stackOf(u.thread), runSequence);
        }
      } catch (Throwable t) {
        AgentErrors.report("the unit watchdog", t);
      }
    }
  }

  /** Units of threads that are still alive; forgets the others. */
  static synchronized UnitState[] snapshot() {
    int live = 0;
    for (int i = 0; i < stateCount; i++) {
      if (states[i].thread.isAlive()) {
        states[live++] = states[i];
      }
    }
    for (int i = live; i < stateCount; i++) {
      states[i] = null;
    }
    stateCount = live;
    UnitState[] copy = new UnitState[live];
    System.arraycopy(states, 0, copy, 0, live);
    return copy;
  }

  private static synchronized UnitState register(ThreadState s) {
    UnitState u = new UnitState(Thread.currentThread());
    if (stateCount == states.length) {
      UnitState[] bigger = new UnitState[states.length * 2];
      System.arraycopy(states, 0, bigger, 0, stateCount);
      states = bigger;
    }
    states[stateCount++] = u;
    s.unitState = u;
    return u;
  }

  /** {@code thread}'s stack, innermost first, without the agent's own frames on top. */
  static StackTraceElement[] stackOf(Thread thread) {
    StackTraceElement[] all = thread.getStackTrace();
    int from = 0;
    while (from < all.length
        && (all[from].getClassName().equals(UNITS)
            || all[from].getClassName().equals(API)
            || all[from].getClassName().equals("java.lang.Thread"))) {
      from++;
    }
    int n = Math.min(MAX_FRAMES, all.length - from);
    StackTraceElement[] out = new StackTraceElement[n];
    System.arraycopy(all, from, out, 0, n);
    return out;
  }

  /**
   * An executor task's unit name: its class and {@code run}, with a lambda's JVM-specific suffix
   * removed so the name is the same after a restart.
   */
  static String taskName(String className) {
    int lambda = className.indexOf("$$Lambda");
    String stable = lambda >= 0 ? className.substring(0, lambda) : className;
    return new StringBuilder(stable.length() + 4).append(stable).append(".run").toString();
  }
}
