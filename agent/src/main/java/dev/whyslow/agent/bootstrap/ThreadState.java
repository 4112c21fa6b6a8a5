package dev.whyslow.agent.bootstrap;

/**
 * What one thread's probes need, fetched once per instrumented method invocation into a local. The
 * unsampled path touches no field at all: a method copies {@link #countdown} into a local and
 * writes it back only around calls, returns and throws. Everything here is confined to its thread;
 * it dies with its thread, unless {@link ThreadStates}' bounded table still holds it.
 */
public final class ThreadState {
  /**
   * Evaluations left until the next recorded one. Between calls a running instrumented method
   * decrements its own local copy; this field is the truth whenever a call, return or throw passes
   * control to other code.
   */
  public int countdown;

  /**
   * The id of the thread this state belongs to; {@link ThreadStates} keeps states of dead threads,
   * by id rather than by reference so that it keeps no dead thread alive.
   */
  final long threadId;

  /**
   * Invocations of methods with copies left until the next one that runs its copy with probes
   * ({@link Entries#entry}); drawn from a geometric distribution with mean one over {@link
   * Probes#invocationShare}.
   */
  int invocations = 1;

  /**
   * What {@link #invocations} was drawn to at this thread's last invocation that ran its copy with
   * probes, so that it still equals it until the next invocation counts: {@link
   * Entries#followingEntry} reads the two to follow that choice. {@link Integer#MIN_VALUE} (never
   * drawn) after any choice that ran no copy; at a resynchronisation, a choice made with the share.
   */
  int sampledAt = Integer.MIN_VALUE;

  /** {@link Probes#generation} this state last synchronised with (rate change, kill switch). */
  int generation;

  /** Set while the sampled path runs, so probes hit by the agent's own code are ignored. */
  boolean busy;

  /** An agent thread (transport, shutdown, transformer): its evaluations are never recorded. */
  boolean agent;

  /**
   * Where sampled evaluations go; {@code null} means the process run. A later unit run sets it for
   * the duration of its unit.
   */
  RunCounts currentRun;

  /**
   * Frames of depth-counted methods on this thread's stack. Each keeps its own depth in a local and
   * puts it back at returns, throws and handlers, so an exception never leaves it wrong.
   */
  public int depth;

  /**
   * The running unit, or {@code null}; set with {@link #startUnit}, cleared with {@link #endUnit}.
   */
  UnitState unit;

  /**
   * What an invocation that is not sampled runs: {@link Probes#OWN} outside units, {@link
   * Probes#DEPTH} inside one. Kept beside {@link #unit} so that {@link Entries#entry} returns a
   * field instead of testing one, which keeps it within the 35 bytes the JIT's first tier inlines.
   */
  int unsampled = Probes.OWN;

  /**
   * As {@link #unsampled}, for the guard methods' entries ({@link Entries#guardEntry}): {@link
   * Probes#DEPTH} inside every unit, since a guard must see each unit, also one that counts no
   * other frame.
   */
  int guardUnsampled = Probes.OWN;

  /**
   * Once units are chosen whole ({@code units.choice=unit}): what a unit's root runs ({@link
   * Entries#worldEntry}), {@link Probes#PROBES} in a chosen unit, else {@link Probes#OWN}.
   */
  int world = Probes.OWN;

  /**
   * As {@link #world}, for the guard methods ({@link Entries#worldGuardEntry}): {@link
   * Probes#DEPTH} in a unit not chosen, whose guard still has to run.
   */
  int worldGuard = Probes.OWN;

  /**
   * Which method entries have unit work to do, the one thing a method entry checks besides the
   * depth: bit {@code id % 256} (word {@code id / 64 % 4}) is set for the guards of the running
   * unit's model, and every bit while the unit is traced; all are clear outside units. An entry
   * whose bit is set calls {@code Units.entered}, which checks the method exactly, so a method that
   * shares a guard's bit only pays that call. Four fields rather than an array: each entry method
   * of {@link UnitEntries} reads the one its method's id falls in, where reading an array element
   * at every entry cost a loop over inlined methods about 2 ns an entry (UnitEntryBenchmark,
   * bench/LATENCY.md).
   */
  long watched0;

  long watched1;
  long watched2;
  long watched3;

  /** This thread's reusable unit state, created at its first unit. */
  UnitState unitState;

  /** SplitMix64 state; per thread so drawing needs no synchronisation and no java.util class. */
  private long seed;

  private static long seedSequence = System.nanoTime();

  /** Whether every thread's seed comes from {@link #fixedSeed} and its id alone. */
  private static volatile boolean seedFixed;

  private static long fixedSeed;

  ThreadState() {
    threadId = Thread.currentThread().getId();
    if (seedFixed) {
      // The id, not the order threads first reach a probe: the agent's own threads may come first.
      seed = mix(fixedSeed ^ (threadId * 0xBF58476D1CE4E5B9L));
    } else {
      // A racy static sequence is fine: it only spreads seeds, the mix below does the rest.
      long s = seedSequence += 0x9E3779B97F4A7C15L;
      seed = mix(s ^ System.nanoTime() ^ (threadId * 0xBF58476D1CE4E5B9L));
    }
    generation = Probes.generation - 1; // forces a sync (and first draw) on first use
  }

  /**
   * A state no thread owns, for the empty slots of {@link ThreadStates}' table: no thread has id
   * -1, so a lookup never takes it for its own.
   */
  static ThreadState nobody() {
    return new ThreadState(-1L);
  }

  private ThreadState(long threadId) {
    this.threadId = threadId;
  }

  /**
   * {@code u} starts on this thread, watching the entries in {@code bits} (see {@link #watch});
   * with {@code everyFrame} false only the guard methods count their frames in it.
   */
  void startUnit(UnitState u, long[] bits, boolean everyFrame, boolean chosen) {
    unit = u;
    unsampled = everyFrame ? Probes.DEPTH : Probes.OWN;
    guardUnsampled = Probes.DEPTH;
    world = chosen ? Probes.PROBES : Probes.OWN;
    worldGuard = chosen ? Probes.PROBES : Probes.DEPTH;
    watch(bits);
  }

  /** The running unit ends: no entry has unit work, and no invocation needs the depth count. */
  void endUnit() {
    unit = null;
    unsampled = Probes.OWN;
    guardUnsampled = Probes.OWN;
    world = Probes.OWN;
    worldGuard = Probes.OWN;
    unwatch();
  }

  /** Sets the watched bits to {@code bits}, four words, or to all of them with {@code null}. */
  void watch(long[] bits) {
    watched0 = bits == null ? -1L : bits[0];
    watched1 = bits == null ? -1L : bits[1];
    watched2 = bits == null ? -1L : bits[2];
    watched3 = bits == null ? -1L : bits[3];
  }

  /** Clears the watched bits: outside units no entry has unit work. */
  void unwatch() {
    watched0 = 0;
    watched1 = 0;
    watched2 = 0;
    watched3 = 0;
  }

  /** The run sampled evaluations of this thread are recorded in, or {@code null} (process run). */
  public RunCounts currentRun() {
    return currentRun;
  }

  /** Redirects this thread's samples to {@code run}, or back to the process run with null. */
  public void setCurrentRun(RunCounts run) {
    this.currentRun = run;
  }

  /**
   * Draws the number of evaluations until the next recorded one from the geometric distribution
   * with success probability {@code rate}: {@code floor(ln(U) / ln(1 - rate)) + 1}, U in (0, 1].
   */
  int draw(SamplingRate rate) {
    if (rate.rate >= 1.0) {
      return 1;
    }
    double u = ((nextLong() >>> 11) + 1) * 0x1.0p-53; // uniform in (0, 1]
    double n = Math.floor(Math.log(u) / rate.logOneMinusRate) + 1.0;
    return n >= Integer.MAX_VALUE ? Integer.MAX_VALUE : (int) n;
  }

  /**
   * Seeds every thread state created from now on from {@code seed} and its thread's id, so that a
   * program whose probes run on the same threads records the same evaluations in every run. The
   * agent calls it before any probe runs, where {@code sampling.seed} is set.
   */
  static void fixSeeds(long seed) {
    fixedSeed = seed;
    seedFixed = true;
  }

  /** Back to a random start per thread state; for tests. */
  static void unfixSeeds() {
    seedFixed = false;
  }

  /**
   * Restarts this thread's draws from {@code seed}, so that two runs of the same code draw the same
   * countdowns: for tests comparing two instrumentations of one method, never called by the agent.
   */
  public void reseed(long seed) {
    this.seed = seed;
  }

  long nextLong() {
    seed += 0x9E3779B97F4A7C15L;
    return mix(seed);
  }

  private static long mix(long z) {
    z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
    z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
    return z ^ (z >>> 31);
  }
}
