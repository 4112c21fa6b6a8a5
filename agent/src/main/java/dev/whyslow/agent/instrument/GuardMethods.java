package dev.whyslow.agent.instrument;

/**
 * The methods whose entry asks {@code Entries.guardEntry()} rather than {@code Entries.entry()}:
 * the trained guards, once they tell unit types apart by site alone, so that inside a unit they
 * still run their depth-only copy (whose entry is the guard) while the unit's other methods run
 * their own code. Set by the agent after training, before it retransforms the guards' classes; read
 * by the instrumenter for every class it instruments from then on.
 */
public final class GuardMethods {
  private final MethodIdSet ids = new MethodIdSet();

  /** Whether {@code methodId} is one of the guard methods. */
  public boolean contains(int methodId) {
    return ids.contains(methodId);
  }

  /** Makes {@code methodIds} the guard methods, replacing any before. */
  public void set(int[] methodIds) {
    ids.set(methodIds);
  }
}
