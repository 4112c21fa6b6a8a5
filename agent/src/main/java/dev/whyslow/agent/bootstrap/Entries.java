package dev.whyslow.agent.bootstrap;

/**
 * The choice at the entry of every method with copies ({@code MethodCopies}): which code this
 * invocation runs, {@link Probes#OWN}, {@link Probes#PROBES} or {@link Probes#DEPTH}; and whether
 * the entries choose at all ({@link #open()}).
 *
 * <p>Between sampling windows ({@code SamplingWindows}) the entries are closed: every instrumented
 * method tests {@link #open()} before it asks its entry, and runs its own code when they are
 * closed, without looking at its thread. The thread-state lookup and countdown step at every
 * invocation were about half of what the agent cost the example shop's requests (bench/LATENCY.md);
 * a static flag costs a load and a branch, and changing it needs no retransformation and no
 * recompilation once the JIT has seen both answers. A guard method's entry tests the flag itself,
 * since its unit still needs the guard while the entries are closed.
 */
public final class Entries {
  /**
   * Whether the entries choose; a plain static, read at every instrumented invocation. A thread may
   * see a change a little late (a compiled loop may keep the value it read), which only moves a
   * window's edge for that thread.
   */
  private static boolean open = true;

  private Entries() {}

  /** Whether the entries choose ({@code true}) or every method runs its own code. */
  public static boolean open() {
    return open;
  }

  /** Opens the entries for a sampling window ({@code true}) or closes them until the next. */
  public static void setOpen(boolean choose) {
    open = choose;
  }

  /**
   * At the entry of a method with copies: which code this invocation runs, {@link Probes#OWN},
   * {@link Probes#PROBES} or {@link Probes#DEPTH}. An invocation runs its copy with probes with
   * probability {@link Probes#invocationShare}, decided by a per-thread geometric countdown of
   * invocations, so which invocations are sampled depends neither on their code nor on how long
   * they take. Inside a unit the others run the depth-only copy, so that guards see every frame of
   * the unit.
   */
  public static int entry() {
    ThreadState s = ThreadStates.current();
    if (--s.invocations > 0) {
      return s.unsampled;
    }
    return Sampler.sampledInvocation(s);
  }

  /**
   * As {@link #entry()}, for a method that does not count depth: {@link Probes#PROBES} for a
   * sampled invocation, {@link Probes#OWN} for every other, inside a unit too.
   */
  public static int sampledEntry() {
    ThreadState s = ThreadStates.current();
    if (--s.invocations > 0) {
      return Probes.OWN;
    }
    return Sampler.sampledOrOwn(s);
  }

  /**
   * At the entry of a short method without loop or handler that counts no depth ({@code
   * DepthCounting}, such as an accessor with a branch or a checked return): {@link Probes#PROBES}
   * when the last invocation this thread chose for, by {@link #entry()} or {@link #sampledEntry()},
   * ran its copy with probes, and no invocation has counted since; else {@link Probes#OWN}, inside
   * a unit too. Each of those choices is an independent draw with probability {@link
   * Probes#invocationShare} whatever the code around it, so such a method runs its probes with that
   * probability too, and its evaluations are recorded with the rate like every other's; it only
   * draws nothing and writes nothing itself, where a countdown step cost such a method as much as
   * its own code. A thread that has made no choice yet follows one made for it when it synchronised
   * ({@code Sampler.resync}), with the same chance.
   */
  public static int followingEntry() {
    ThreadState s = ThreadStates.current();
    return s.invocations == s.sampledAt ? Probes.PROBES : Probes.OWN;
  }

  /**
   * As {@link #followingEntry()}, for a short method that counts depth (it calls the application):
   * {@link Probes#PROBES} as there, else what an invocation not sampled runs, {@link Probes#DEPTH}
   * inside a unit.
   */
  public static int followingCountedEntry() {
    ThreadState s = ThreadStates.current();
    return s.invocations == s.sampledAt ? Probes.PROBES : s.unsampled;
  }

  /**
   * As {@link #entry()}, at the entry of a guard method once the trained guards need no depth
   * ({@code Units.countDepthOnlyWhereNeeded}): inside a unit an invocation that is not sampled runs
   * the depth-only copy, whose entry is the guard, even where the unit's other methods run their
   * own code. Outside units, and in units that count every frame, the same as {@link #entry()}.
   * While the entries are closed, the guard's copy inside such a unit and the own code elsewhere:
   * no invocation is sampled.
   */
  public static int guardEntry() {
    ThreadState s = ThreadStates.current();
    if (!open) {
      return s.guardUnsampled;
    }
    if (--s.invocations > 0) {
      return s.guardUnsampled;
    }
    return Sampler.sampledGuardInvocation(s);
  }

  /** As {@link #followingCountedEntry()}, for a short guard method (see {@link #guardEntry()}). */
  public static int followingGuardEntry() {
    ThreadState s = ThreadStates.current();
    return open && s.invocations == s.sampledAt ? Probes.PROBES : s.guardUnsampled;
  }

  /**
   * Once units are chosen whole ({@code units.choice=unit}), at the entry of a unit's root, of a
   * method whose copies are inside its own body and of a method that recurses alone: {@link
   * Probes#PROBES} when the thread's unit was chosen ({@code Units.start}), else {@link
   * Probes#OWN}. It draws nothing: the unit's choice was the draw, and in a chosen unit the copies
   * call each other's copies ({@link WorldCalls}), so most methods have no entry at all.
   */
  public static int worldEntry() {
    return ThreadStates.current().world;
  }

  /**
   * As {@link #worldEntry()}, at a guard method's entry: {@link Probes#DEPTH} in a unit not chosen,
   * whose depth-only copy runs the guard.
   */
  public static int worldGuardEntry() {
    return ThreadStates.current().worldGuard;
  }
}
