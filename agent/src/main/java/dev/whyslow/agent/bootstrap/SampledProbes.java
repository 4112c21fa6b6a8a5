package dev.whyslow.agent.bootstrap;

/**
 * The sampled path of the probes. An instrumented method keeps the countdown in a local and passes
 * it to {@link CheckedProbes}, which decrements it and calls one of these only when it runs out;
 * the next countdown they return goes back into the local. So these record unconditionally (unless
 * the kill switch, an agent thread or re-entrancy says no, see {@link Sampler}) and never touch the
 * unsampled path. Predicates are those of {@link Probes}' probes of the same name.
 */
public final class SampledProbes {
  private SampledProbes() {}

  // ---- branch probes: operands are copies of the jump's, predicate 0 = taken, 1 = not taken ----

  public static int ifeq(int v, ThreadState s, int slot) {
    return Sampler.outcome(s, slot, v == 0 ? 0 : 1);
  }

  public static int ifne(int v, ThreadState s, int slot) {
    return Sampler.outcome(s, slot, v != 0 ? 0 : 1);
  }

  public static int iflt(int v, ThreadState s, int slot) {
    return Sampler.outcome(s, slot, v < 0 ? 0 : 1);
  }

  public static int ifge(int v, ThreadState s, int slot) {
    return Sampler.outcome(s, slot, v >= 0 ? 0 : 1);
  }

  public static int ifgt(int v, ThreadState s, int slot) {
    return Sampler.outcome(s, slot, v > 0 ? 0 : 1);
  }

  public static int ifle(int v, ThreadState s, int slot) {
    return Sampler.outcome(s, slot, v <= 0 ? 0 : 1);
  }

  public static int ifIcmpeq(int a, int b, ThreadState s, int slot) {
    return Sampler.outcome(s, slot, a == b ? 0 : 1);
  }

  public static int ifIcmpne(int a, int b, ThreadState s, int slot) {
    return Sampler.outcome(s, slot, a != b ? 0 : 1);
  }

  public static int ifIcmplt(int a, int b, ThreadState s, int slot) {
    return Sampler.outcome(s, slot, a < b ? 0 : 1);
  }

  public static int ifIcmpge(int a, int b, ThreadState s, int slot) {
    return Sampler.outcome(s, slot, a >= b ? 0 : 1);
  }

  public static int ifIcmpgt(int a, int b, ThreadState s, int slot) {
    return Sampler.outcome(s, slot, a > b ? 0 : 1);
  }

  public static int ifIcmple(int a, int b, ThreadState s, int slot) {
    return Sampler.outcome(s, slot, a <= b ? 0 : 1);
  }

  public static int ifAcmpeq(Object a, Object b, ThreadState s, int slot) {
    return Sampler.outcome(s, slot, a == b ? 0 : 1);
  }

  public static int ifAcmpne(Object a, Object b, ThreadState s, int slot) {
    return Sampler.outcome(s, slot, a != b ? 0 : 1);
  }

  public static int ifNull(Object v, ThreadState s, int slot) {
    return Sampler.outcome(s, slot, v == null ? 0 : 1);
  }

  public static int ifNonNull(Object v, ThreadState s, int slot) {
    return Sampler.outcome(s, slot, v != null ? 0 : 1);
  }

  /**
   * A loop whose only probe is its own deciding branch ran on bare decrements and left with its
   * countdown at {@code cd <= 0}: the evaluation that brought it to zero and every later sampled
   * one are recorded now, each "continue" except the last evaluation, which left the loop. Returns
   * the countdown left after the loop, exactly as checking at every evaluation would have.
   *
   * @param exitPredicate the predicate of the evaluation that left the loop (0 taken, 1 not)
   */
  public static int loopExit(ThreadState s, int cd, int slot, int exitPredicate) {
    long after = -(long) cd; // evaluations after the one that brought the countdown to zero
    while (true) {
      int next = Sampler.outcome(s, slot, after == 0 ? exitPredicate : 1 - exitPredicate);
      if (next > after) {
        return (int) (next - after);
      }
      after -= next;
    }
  }

  // ---- return probes ----

  /** {@code int}, {@code short}, {@code byte} and {@code char} returns: the six sign predicates. */
  public static int returnInt(int v, ThreadState s, int slot) {
    return Sampler.sign(s, slot, Integer.signum(v));
  }

  public static int returnLong(long v, ThreadState s, int slot) {
    return Sampler.sign(s, slot, Long.signum(v));
  }

  public static int returnFloat(float v, ThreadState s, int slot) {
    return Sampler.sign(s, slot, v > 0f ? 1 : v < 0f ? -1 : v == 0f ? 0 : Sampler.NAN);
  }

  public static int returnDouble(double v, ThreadState s, int slot) {
    return Sampler.sign(s, slot, v > 0d ? 1 : v < 0d ? -1 : v == 0d ? 0 : Sampler.NAN);
  }

  /** {@code boolean} returns: predicate 0 = false, 1 = true. */
  public static int returnBoolean(int v, ThreadState s, int slot) {
    return Sampler.outcome(s, slot, v != 0 ? 1 : 0);
  }

  /** Reference returns: predicate 0 = null, 1 = non-null. */
  public static int returnReference(Object v, ThreadState s, int slot) {
    return Sampler.outcome(s, slot, v == null ? 0 : 1);
  }

  // ---- scalar-pair probes: the new value of a local against its old value or another local ----

  public static int scalarInt(int newValue, int other, ThreadState s, int slot) {
    return Sampler.sign(s, slot, newValue < other ? -1 : newValue == other ? 0 : 1);
  }

  public static int scalarLong(long newValue, long other, ThreadState s, int slot) {
    return Sampler.sign(s, slot, newValue < other ? -1 : newValue == other ? 0 : 1);
  }
}
