package dev.whyslow.agent.instrument;

/**
 * Whether classes are instrumented in the form where units are chosen whole ({@code
 * units.choice=unit}), and which methods are units' roots. In that form a method runs the code
 * javac wrote, with no choice at its entry, except where a unit's choice must be read: the roots
 * (the first frames the training traces saw in a unit), the guards, and methods whose copies are
 * inside their own body or that recurse alone. A copy's calls go to the callees' copies ({@code
 * WorldCalls}). Set by the agent after training, before it retransforms every instrumented class;
 * read by the instrumenter for every class from then on.
 */
public final class UnitChoice {
  private final MethodIdSet roots = new MethodIdSet();
  private volatile boolean on;

  /** Whether classes get the form where units are chosen whole. */
  public boolean on() {
    return on;
  }

  /** Whether {@code methodId} is the root of some unit. */
  public boolean isRoot(int methodId) {
    return roots.contains(methodId);
  }

  /** Turns the form on, with {@code rootIds} the units' roots. */
  public void set(int[] rootIds) {
    roots.set(rootIds);
    on = true;
  }

  /** Back to the form where each invocation chooses. */
  public void clear() {
    on = false;
    roots.set(new int[0]);
  }
}
