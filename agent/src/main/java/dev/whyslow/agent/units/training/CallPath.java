package dev.whyslow.agent.units.training;

import java.util.Arrays;

/**
 * One root-to-leaf call path of a unit (method ids from the unit's first callee down), with what
 * the bit-parallel LCS needs: for each distinct method on the path, the bit mask of its positions.
 * Paths are at most 64 long, so one {@code long} holds a path's positions.
 */
final class CallPath {
  private final int[] methods;

  /** Distinct methods on the path, ascending, and the positions of each as bits. */
  private final int[] symbols;

  private final long[] positions;
  private final int hash;

  CallPath(int[] methods) {
    if (methods.length > 64) {
      throw new IllegalArgumentException(
          "call paths are capped at 64 frames, got " + methods.length);
    }
    this.methods = methods.clone();
    int[] sorted = methods.clone();
    Arrays.sort(sorted);
    int distinct = 0;
    for (int i = 0; i < sorted.length; i++) {
      if (i == 0 || sorted[i] != sorted[i - 1]) {
        sorted[distinct++] = sorted[i];
      }
    }
    this.symbols = Arrays.copyOf(sorted, distinct);
    this.positions = new long[distinct];
    for (int i = 0; i < methods.length; i++) {
      positions[Arrays.binarySearch(symbols, methods[i])] |= 1L << i;
    }
    this.hash = Arrays.hashCode(methods);
  }

  int length() {
    return methods.length;
  }

  int method(int index) {
    return methods[index];
  }

  /**
   * PerfGuard's path distance {@code (max(|p|,|q|) − |LCS(p,q)|) / max(|p|,|q|)}: 0 for equal
   * paths, 1 for paths with no method in common; two empty paths are at 0.
   */
  static double distance(CallPath p, CallPath q) {
    int longest = Math.max(p.methods.length, q.methods.length);
    if (longest == 0) {
      return 0.0;
    }
    if (p == q) {
      return 0.0;
    }
    return (longest - lcsLength(p, q)) / (double) longest;
  }

  /**
   * Length of the longest common subsequence in O(|p| · log |q|) with the bit-vector recurrence of
   * Allison and Dix (1986): {@code v} has a 0 bit for each matched position of {@code q}; each step
   * takes the lowest new match in every run of the current row.
   */
  static int lcsLength(CallPath p, CallPath q) {
    int m = q.methods.length;
    if (m == 0 || p.methods.length == 0) {
      return 0;
    }
    long all = m == 64 ? -1L : (1L << m) - 1;
    long v = all;
    for (int method : p.methods) {
      int s = Arrays.binarySearch(q.symbols, method);
      if (s < 0) {
        continue;
      }
      long u = v & q.positions[s];
      v = ((v + u) | (v - u)) & all;
    }
    return m - Long.bitCount(v);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof CallPath c && hash == c.hash && Arrays.equals(methods, c.methods);
  }

  @Override
  public int hashCode() {
    return hash;
  }

  @Override
  public String toString() {
    return Arrays.toString(methods);
  }
}
