package dev.whyslow.agent.bootstrap;

/**
 * The entry point of instrumented code and the agent's controls. An instrumented method calls
 * {@link #state()} once at entry, keeps the result and a copy of {@link ThreadState#countdown} in
 * locals, and passes that local through {@link CheckedProbes} at each site, which calls {@link
 * SampledProbes} only when it runs out (see {@code MethodRewriter} for when the local and the field
 * are synchronised).
 *
 * <p>The void probes below are the same predicates with the countdown kept in the field, for code
 * that has no local countdown (tests, hand-written callers): each decrements {@link
 * ThreadState#countdown} and records when it reaches zero. Branch probes record "taken" (predicate
 * 0) or "not taken" (predicate 1), return probes the sign of the value, scalar-pair probes the sign
 * of the new value minus the compared one. No lambdas, string concatenation or non-JDK classes
 * here: this class is in the bootstrap class loader and is called from every class loader, {@code
 * java.*} included.
 */
public final class Probes {
  /** Bumped whenever the rate or the kill switch changes; threads resynchronise on mismatch. */
  static volatile int generation;

  static volatile boolean enabled = true;

  /** The rate threads draw their countdowns with: in sampled invocations, the rate over share. */
  static volatile SamplingRate rate = SamplingRate.of(1e-4);

  /** The share of evaluations recorded: what runs report. */
  private static volatile double effectiveRate = 1e-4;

  /**
   * The share of invocations of methods with copies that run their copy with probes ({@code
   * MethodCopies}); 1 when every invocation is sampled on its own.
   */
  static volatile double invocationShare = 1.0;

  /** {@link #invocationShare} as a rate to draw with, so that drawing allocates nothing. */
  static volatile SamplingRate invocationRate = SamplingRate.of(1.0);

  /** {@link Entries#entry()}: run the method's own code. */
  public static final int OWN = 0;

  /** {@link Entries#entry()}: run the copy with probes and the depth count. */
  public static final int PROBES = 1;

  /** {@link Entries#entry()}: run the copy with the depth count alone (inside a unit). */
  public static final int DEPTH = 2;

  /**
   * Set in the slot a probe passes when its method has no copies although others do (a constructor,
   * an interface, a class retransformed, see {@code MethodCopies}): its probes run at every
   * invocation, at the in-copy rate, so the sampled path keeps each of their samples with
   * probability {@link #invocationShare}. Each evaluation is then recorded with the share times
   * that rate, as everywhere else.
   */
  public static final int CHECK_SHARE = Integer.MIN_VALUE;

  /** The process run, or {@code null} when process runs are not recorded. */
  static volatile RunCounts processRun;

  private Probes() {}

  /** The calling thread's state; called once at the entry of every instrumented method. */
  public static ThreadState state() {
    return ThreadStates.current();
  }

  // ---- configuration, called by the agent core and the daemon's commands ----

  /** Sets the probability with which one predicate evaluation is recorded, in every invocation. */
  public static void setSamplingRate(double newRate) {
    setSamplingRate(newRate, 1.0);
  }

  /**
   * Sets the share of evaluations recorded ({@code effective}, what runs report) and the share of
   * invocations that run their copy with probes ({@code share}, in (0, 1]); in those, threads draw
   * at the rate over the share.
   */
  public static synchronized void setSamplingRate(double effective, double share) {
    if (!(share > 0 && share <= 1) || effective > share) {
      throw new IllegalArgumentException(
          new StringBuilder("invocation share must be in [rate, 1], was ")
              .append(share)
              .toString());
    }
    SamplingRate drawn = SamplingRate.of(effective / share);
    SamplingRate.of(effective); // checks it
    rate = drawn;
    effectiveRate = effective;
    invocationShare = share;
    invocationRate = SamplingRate.of(share);
    generation++;
    ThreadStates.forgetAll();
  }

  /** The share of evaluations recorded, as runs report it. */
  public static double samplingRate() {
    return effectiveRate;
  }

  /** The share of invocations with copies that run their copy with probes. */
  public static double invocationShare() {
    return invocationShare;
  }

  /** The kill switch: with {@code false}, every probe becomes a no-op until re-enabled. */
  public static synchronized void setEnabled(boolean on) {
    enabled = on;
    generation++;
    ThreadStates.forgetAll();
  }

  public static boolean isEnabled() {
    return enabled;
  }

  /** Where sampled evaluations of threads without a unit run go; {@code null} to drop them. */
  public static void setProcessRun(RunCounts run) {
    processRun = run;
  }

  public static RunCounts processRun() {
    return processRun;
  }

  /** Marks the calling thread as the agent's own for good: its evaluations are never recorded. */
  public static void markAgentThread() {
    ThreadState s = ThreadStates.owned();
    s.agent = true;
    s.countdown = Integer.MAX_VALUE;
  }

  /**
   * Marks the calling thread as doing agent work (class transformation) until {@link
   * #exitAgentWork}; returns whether it already was, to pass back.
   */
  public static boolean enterAgentWork() {
    ThreadState s = ThreadStates.owned();
    boolean was = s.agent;
    s.agent = true;
    s.countdown = Integer.MAX_VALUE;
    return was;
  }

  public static void exitAgentWork(boolean was) {
    if (!was) {
      ThreadState s = ThreadStates.owned();
      s.agent = false;
      Sampler.resync(s);
    }
  }

  /**
   * Starts every thread's sampler from {@code seed} and the thread's id ({@code sampling.seed}):
   * for tests and evaluations that must sample the same evaluations in every run. Must come before
   * {@link #warmUp}, which creates the premain thread's state.
   */
  public static void fixSamplerSeed(long seed) {
    ThreadState.fixSeeds(seed);
  }

  /**
   * Initialises and links every class and method the sampled path uses, by running each probe's
   * sampled path once into a scratch run; called once by the agent before any class is
   * instrumented.
   */
  public static void warmUp() {
    ThreadState s = state();
    RunCounts saved = s.currentRun;
    boolean wasAgent = s.agent;
    s.agent = false;
    s.currentRun = new ChunkedRunCounts(8);
    try {
      SampledProbes.ifeq(0, s, 0);
      SampledProbes.ifIcmplt(0, 1, s, 0);
      SampledProbes.ifAcmpne(s, s, s, 0);
      SampledProbes.ifNull(s, s, 0);
      SampledProbes.returnInt(-1, s, 0);
      SampledProbes.returnDouble(Double.NaN, s, 0);
      SampledProbes.returnReference(s, s, 0);
      SampledProbes.scalarInt(1, 2, s, 0);
      SampledProbes.scalarLong(2L, 1L, s, 0);
      CheckedProbes.ifeq(0, s, 0, 1);
      CheckedProbes.returnReference(s, s, 0, 1);
      CheckedProbes.loopExit(s, 0, 0, 0);
      Entries.entry();
      Entries.guardEntry();
      Entries.followingGuardEntry();
      s.countdown = 1;
      ifeq(0, s, 0);
      s.currentRun.get(0);
      AgentErrors.count();
      Units.warmUp(s);
    } finally {
      s.currentRun = saved;
      s.agent = wasAgent;
      Sampler.resetSamples();
      Sampler.resync(s);
    }
  }

  /** Predicate evaluations recorded since the JVM started. */
  public static long samplesRecorded() {
    return Sampler.samplesRecorded();
  }

  // ---- branch probes: operands are copies of the jump's, predicate 0 = taken, 1 = not taken ----

  public static void ifeq(int v, ThreadState s, int slot) {
    if (--s.countdown > 0) return;
    Sampler.outcome(s, slot, v == 0 ? 0 : 1);
  }

  public static void ifne(int v, ThreadState s, int slot) {
    if (--s.countdown > 0) return;
    Sampler.outcome(s, slot, v != 0 ? 0 : 1);
  }

  public static void iflt(int v, ThreadState s, int slot) {
    if (--s.countdown > 0) return;
    Sampler.outcome(s, slot, v < 0 ? 0 : 1);
  }

  public static void ifge(int v, ThreadState s, int slot) {
    if (--s.countdown > 0) return;
    Sampler.outcome(s, slot, v >= 0 ? 0 : 1);
  }

  public static void ifgt(int v, ThreadState s, int slot) {
    if (--s.countdown > 0) return;
    Sampler.outcome(s, slot, v > 0 ? 0 : 1);
  }

  public static void ifle(int v, ThreadState s, int slot) {
    if (--s.countdown > 0) return;
    Sampler.outcome(s, slot, v <= 0 ? 0 : 1);
  }

  public static void ifIcmpeq(int a, int b, ThreadState s, int slot) {
    if (--s.countdown > 0) return;
    Sampler.outcome(s, slot, a == b ? 0 : 1);
  }

  public static void ifIcmpne(int a, int b, ThreadState s, int slot) {
    if (--s.countdown > 0) return;
    Sampler.outcome(s, slot, a != b ? 0 : 1);
  }

  public static void ifIcmplt(int a, int b, ThreadState s, int slot) {
    if (--s.countdown > 0) return;
    Sampler.outcome(s, slot, a < b ? 0 : 1);
  }

  public static void ifIcmpge(int a, int b, ThreadState s, int slot) {
    if (--s.countdown > 0) return;
    Sampler.outcome(s, slot, a >= b ? 0 : 1);
  }

  public static void ifIcmpgt(int a, int b, ThreadState s, int slot) {
    if (--s.countdown > 0) return;
    Sampler.outcome(s, slot, a > b ? 0 : 1);
  }

  public static void ifIcmple(int a, int b, ThreadState s, int slot) {
    if (--s.countdown > 0) return;
    Sampler.outcome(s, slot, a <= b ? 0 : 1);
  }

  public static void ifAcmpeq(Object a, Object b, ThreadState s, int slot) {
    if (--s.countdown > 0) return;
    Sampler.outcome(s, slot, a == b ? 0 : 1);
  }

  public static void ifAcmpne(Object a, Object b, ThreadState s, int slot) {
    if (--s.countdown > 0) return;
    Sampler.outcome(s, slot, a != b ? 0 : 1);
  }

  public static void ifNull(Object v, ThreadState s, int slot) {
    if (--s.countdown > 0) return;
    Sampler.outcome(s, slot, v == null ? 0 : 1);
  }

  public static void ifNonNull(Object v, ThreadState s, int slot) {
    if (--s.countdown > 0) return;
    Sampler.outcome(s, slot, v != null ? 0 : 1);
  }

  // ---- return probes ----

  /** {@code int}, {@code short}, {@code byte} and {@code char} returns: the six sign predicates. */
  public static void returnInt(int v, ThreadState s, int slot) {
    if (--s.countdown > 0) return;
    Sampler.sign(s, slot, Integer.signum(v));
  }

  public static void returnLong(long v, ThreadState s, int slot) {
    if (--s.countdown > 0) return;
    Sampler.sign(s, slot, Long.signum(v));
  }

  public static void returnFloat(float v, ThreadState s, int slot) {
    if (--s.countdown > 0) return;
    Sampler.sign(s, slot, v > 0f ? 1 : v < 0f ? -1 : v == 0f ? 0 : Sampler.NAN);
  }

  public static void returnDouble(double v, ThreadState s, int slot) {
    if (--s.countdown > 0) return;
    Sampler.sign(s, slot, v > 0d ? 1 : v < 0d ? -1 : v == 0d ? 0 : Sampler.NAN);
  }

  /** {@code boolean} returns: predicate 0 = false, 1 = true. */
  public static void returnBoolean(int v, ThreadState s, int slot) {
    if (--s.countdown > 0) return;
    Sampler.outcome(s, slot, v != 0 ? 1 : 0);
  }

  /** Reference returns: predicate 0 = null, 1 = non-null. */
  public static void returnReference(Object v, ThreadState s, int slot) {
    if (--s.countdown > 0) return;
    Sampler.outcome(s, slot, v == null ? 0 : 1);
  }

  // ---- scalar-pair probes: the new value of a local against its old value or another local ----

  /**
   * An {@code int} local's new value compared with {@code other}: the six predicates {@code new <
   * other}, {@code <=}, {@code >}, {@code >=}, {@code ==}, {@code !=}.
   */
  public static void scalarInt(int newValue, int other, ThreadState s, int slot) {
    if (--s.countdown > 0) return;
    Sampler.sign(s, slot, newValue < other ? -1 : newValue == other ? 0 : 1);
  }

  /** A {@code long} local's new value compared with {@code other}, as {@link #scalarInt}. */
  public static void scalarLong(long newValue, long other, ThreadState s, int slot) {
    if (--s.countdown > 0) return;
    Sampler.sign(s, slot, newValue < other ? -1 : newValue == other ? 0 : 1);
  }
}
