package dev.whyslow.agent.bootstrap;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

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
 * here: this class is on the bootstrap class path and is called from every class loader, {@code
 * java.*} included.
 */
public final class Probes {
  /** Bumped whenever the rate or the kill switch changes; threads resynchronise on mismatch. */
  static volatile int generation;

  static volatile boolean enabled = true;

  /** The rate threads draw their countdowns with: inside sampling windows, the rate over duty. */
  static volatile SamplingRate rate = SamplingRate.of(1e-4);

  /** The share of evaluations recorded, windows or not: what runs report. */
  private static volatile double effectiveRate = 1e-4;

  /** {@link #mode}'s bit for an open sampling window: methods run their copy with probes. */
  public static final int WINDOW = 1;

  /**
   * Set in the slot a probe passes when its method has no copies but others do (a constructor, an
   * interface, a class retransformed, see {@code MethodCopies}): its probes run whether a window is
   * open or not, at the in-window rate, so the sampled path records only while one is. Each of
   * their evaluations is then recorded with the window's duty times that rate, as everywhere else.
   */
  public static final int CHECK_WINDOW = Integer.MIN_VALUE;

  /** What {@link #mode} counts running units in (the bits above {@link #WINDOW}). */
  static final int UNIT = 2;

  /**
   * Which code an instrumented method runs, read once at its entry: 0, its own code; with {@link
   * #WINDOW}, its copy with probes and the depth count; otherwise (a unit is running somewhere) its
   * copy with the depth count alone, so that guards see every frame of every unit. A plain field,
   * not volatile: a read at every method entry must stay one load the JIT may share between inlined
   * methods, and a late view only moves where a window starts. Written through {@link #MODE} only,
   * atomically, since units and windows change it from different threads.
   */
  public static int mode = WINDOW;

  private static final VarHandle MODE;

  static {
    try {
      MODE = MethodHandles.lookup().findStaticVarHandle(Probes.class, "mode", int.class);
    } catch (ReflectiveOperationException e) {
      throw new ExceptionInInitializerError(e);
    }
  }

  /** The process run, or {@code null} when process runs are not recorded. */
  static volatile RunCounts processRun;

  private Probes() {}

  /** The calling thread's state; called once at the entry of every instrumented method. */
  public static ThreadState state() {
    return ThreadStates.current();
  }

  // ---- configuration, called by the agent core and the daemon's commands ----

  /**
   * Sets the probability with which one predicate evaluation is recorded, with no sampling windows
   * (the window stays as it is: open, unless {@link #closeWindow} closed it).
   */
  public static void setSamplingRate(double newRate) {
    setSamplingRate(newRate, newRate);
  }

  /**
   * Sets the share of evaluations recorded ({@code effective}, what runs report) and the rate
   * threads draw with inside sampling windows ({@code inWindow}: the share over the windows' duty).
   */
  public static synchronized void setSamplingRate(double effective, double inWindow) {
    SamplingRate drawn = SamplingRate.of(inWindow);
    SamplingRate.of(effective); // checks it
    rate = drawn;
    effectiveRate = effective;
    generation++;
    ThreadStates.forgetAll();
  }

  /** The share of evaluations recorded, as runs report it. */
  public static double samplingRate() {
    return effectiveRate;
  }

  /** Opens a sampling window: methods entered from now on run their copy with probes. */
  public static void openWindow() {
    MODE.getAndBitwiseOr(WINDOW);
  }

  /** Closes the sampling window: methods entered from now on run their own code (or depth copy). */
  public static void closeWindow() {
    MODE.getAndBitwiseAnd(~WINDOW);
  }

  public static boolean windowOpen() {
    return ((int) MODE.getVolatile() & WINDOW) != 0;
  }

  /** A unit started on some thread: until it finishes, every method counts depth. */
  static void unitStarted() {
    MODE.getAndAdd(UNIT);
  }

  static void unitFinished() {
    MODE.getAndAdd(-UNIT);
  }

  /** The units running now, as {@link #mode} counts them. */
  static int unitsRunning() {
    return (int) MODE.getVolatile() >>> 1;
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
