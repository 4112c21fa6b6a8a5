package dev.whyslow.agent.instrument;

/**
 * The methods whose entry asks {@code Entries.guardEntry()} rather than {@code Entries.entry()}:
 * the trained guards, once they tell unit types apart by site alone, so that inside a unit they
 * still run their depth-only copy (whose entry is the guard) while the unit's other methods run
 * their own code. Set by the agent after training, before it retransforms the guards' classes; read
 * by the instrumenter for every class it instruments from then on.
 */
public final class GuardMethods {
  private volatile long[] bits = new long[0];

  /** Whether {@code methodId} is one of the guard methods. */
  public boolean contains(int methodId) {
    long[] b = bits;
    int word = methodId >>> 6;
    return methodId >= 0 && word < b.length && (b[word] & (1L << methodId)) != 0;
  }

  /** Makes {@code methodIds} the guard methods, replacing any before. */
  public void set(int[] methodIds) {
    int max = -1;
    for (int id : methodIds) {
      if (id < 0) {
        throw new IllegalArgumentException("a method id is at least 0, was " + id);
      }
      max = Math.max(max, id);
    }
    long[] b = new long[(max >>> 6) + 1];
    for (int id : methodIds) {
      b[id >>> 6] |= 1L << id;
    }
    bits = max < 0 ? new long[0] : b;
  }
}
