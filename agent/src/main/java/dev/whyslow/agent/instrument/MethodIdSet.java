package dev.whyslow.agent.instrument;

/**
 * A set of method ids ({@code MethodRegistry}) as bits, replaced whole and read without a lock by
 * the instrumenter as it instruments each class.
 */
final class MethodIdSet {
  private volatile long[] bits = new long[0];

  boolean contains(int methodId) {
    long[] b = bits;
    int word = methodId >>> 6;
    return methodId >= 0 && word < b.length && (b[word] & (1L << methodId)) != 0;
  }

  /** Makes {@code methodIds} the set, replacing any before. */
  void set(int[] methodIds) {
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
