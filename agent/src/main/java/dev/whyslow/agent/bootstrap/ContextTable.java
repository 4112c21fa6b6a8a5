package dev.whyslow.agent.bootstrap;

/**
 * What a guard knows without walking the stack: for each guard method and depth relative to the
 * unit's start, the unit types that entered that method at that depth during training. Immutable
 * and built by the trainer; lookups are two array reads, so a guard never hashes or allocates.
 *
 * <p>Size: one {@code int} per method id up to the largest guard's id, and one {@code long} per
 * guard and depth {@code 0..maxDepth}.
 */
public final class ContextTable {
  /** No guards, no types: what the agent uses before its first training. */
  public static final ContextTable EMPTY = new ContextTable(0, new int[0], 0, new long[0]);

  private final int typeCount;

  /** Guard id by method id, -1 where the method is not a guard. */
  private final int[] guardIdByMethod;

  /** Depths per guard row: relative depths {@code 0..depthSpan-1}. */
  private final int depthSpan;

  /** Candidate bit sets, row-major by guard id then depth. */
  private final long[] candidates;

  /** The guard methods' bits, see {@link #guardBits}. */
  private final long[] guardBits = new long[4];

  /**
   * Per guard, the types it names at every depth where training saw it, when each guard names the
   * same types at all of its depths ({@link #depthTellsNothing}); {@code null} otherwise.
   */
  private final long[] candidatesBySite;

  private ContextTable(int typeCount, int[] guardIdByMethod, int depthSpan, long[] candidates) {
    this.typeCount = typeCount;
    this.guardIdByMethod = guardIdByMethod;
    for (int id = 0; id < guardIdByMethod.length; id++) {
      if (guardIdByMethod[id] >= 0) {
        guardBits[(id >>> 6) & 3] |= 1L << id;
      }
    }
    this.depthSpan = depthSpan;
    this.candidates = candidates;
    this.candidatesBySite = sameAtEveryDepth(depthSpan, candidates);
  }

  private static long[] sameAtEveryDepth(int depthSpan, long[] candidates) {
    int guards = depthSpan == 0 ? 0 : candidates.length / depthSpan;
    long[] bySite = new long[guards];
    for (int g = 0; g < guards; g++) {
      for (int d = 0; d < depthSpan; d++) {
        long cell = candidates[g * depthSpan + d];
        if (cell == 0) {
          continue; // never seen at that depth
        }
        if (bySite[g] != 0 && bySite[g] != cell) {
          return null;
        }
        bySite[g] = cell;
      }
    }
    return bySite;
  }

  /**
   * Builds a table from the trainer's rows; the arrays are copied.
   *
   * @param typeCount unit types, at most 64 (bit {@code i} of a candidate set is type {@code i})
   * @param guardMethodIds the guard methods' ids, guard id = index; each id at least 0, no repeats
   * @param candidatesByGuard per guard, candidate sets indexed by relative depth (0 = none known)
   */
  public static ContextTable of(int typeCount, int[] guardMethodIds, long[][] candidatesByGuard) {
    if (typeCount < 0 || typeCount > 64) {
      throw new IllegalArgumentException(
          text("typeCount must be 0..64 (bits of a long), was ", typeCount, ""));
    }
    if (guardMethodIds.length != candidatesByGuard.length) {
      throw new IllegalArgumentException(
          text("one candidate row per guard expected, rows given: ", candidatesByGuard.length, ""));
    }
    int maxMethod = -1;
    int span = 0;
    for (int g = 0; g < guardMethodIds.length; g++) {
      if (guardMethodIds[g] < 0) {
        throw new IllegalArgumentException(
            text("guard method ids must be >= 0, one is ", guardMethodIds[g], ""));
      }
      maxMethod = Math.max(maxMethod, guardMethodIds[g]);
      span = Math.max(span, candidatesByGuard[g].length);
    }
    int[] byMethod = new int[maxMethod + 1];
    for (int i = 0; i < byMethod.length; i++) {
      byMethod[i] = -1;
    }
    long typeMask = typeCount == 64 ? -1L : (1L << typeCount) - 1;
    long[] cells = new long[guardMethodIds.length * span];
    for (int g = 0; g < guardMethodIds.length; g++) {
      if (byMethod[guardMethodIds[g]] != -1) {
        throw new IllegalArgumentException(
            text("method id ", guardMethodIds[g], " is given as a guard twice"));
      }
      byMethod[guardMethodIds[g]] = g;
      long[] row = candidatesByGuard[g];
      for (int d = 0; d < row.length; d++) {
        cells[g * span + d] = row[d] & typeMask;
      }
    }
    return new ContextTable(typeCount, byMethod, span, cells);
  }

  // No string concatenation on the bootstrap path: javac would make it an invokedynamic.
  private static String text(String before, int value, String after) {
    return new StringBuilder(before).append(value).append(after).toString();
  }

  /**
   * The guards as {@link ThreadState#watched0}'s four words of bits, bit {@code id % 256} per guard
   * method; shared, not copied: callers only read it.
   */
  long[] guardBits() {
    return guardBits;
  }

  /** The guard id of a method, or -1 when it is not a guard (or the id is out of range). */
  public int guardIdOf(int methodId) {
    int[] byMethod = guardIdByMethod;
    return methodId >= 0 && methodId < byMethod.length ? byMethod[methodId] : -1;
  }

  /**
   * Whether the depth adds nothing to what the guard site says: every guard names the same types at
   * each depth where training saw it. Then units need not count their frames for the guards ({@code
   * Units.countDepthOnlyWhereNeeded}), and {@link #candidatesAtAnyDepth} answers for a unit that
   * did not.
   */
  public boolean depthTellsNothing() {
    return candidatesBySite != null;
  }

  /**
   * The types guard {@code guardId} names at every depth training saw it at, when {@link
   * #depthTellsNothing}; 0 otherwise, or when out of range.
   */
  public long candidatesAtAnyDepth(int guardId) {
    long[] bySite = candidatesBySite;
    return bySite != null && guardId >= 0 && guardId < bySite.length ? bySite[guardId] : 0L;
  }

  /**
   * The types whose units entered guard {@code guardId} at {@code relativeDepth} in training: bit
   * {@code i} = type {@code i}; 0 when unknown (never seen there, or out of range).
   */
  public long candidates(int guardId, int relativeDepth) {
    if (guardId < 0 || relativeDepth < 0 || relativeDepth >= depthSpan) {
      return 0L;
    }
    int cell = guardId * depthSpan + relativeDepth;
    return cell < candidates.length ? candidates[cell] : 0L;
  }

  /** Unit types the candidate bits refer to. */
  public int typeCount() {
    return typeCount;
  }

  /** Guard methods in the table (guard ids are {@code 0..guardCount()-1}). */
  public int guardCount() {
    return depthSpan == 0 ? 0 : candidates.length / depthSpan;
  }

  /** The method id of guard {@code guardId}, or -1 when out of range; not for the hot path. */
  public int methodIdOf(int guardId) {
    for (int m = 0; m < guardIdByMethod.length; m++) {
      if (guardIdByMethod[m] == guardId) {
        return m;
      }
    }
    return -1;
  }

  /** Relative depths {@code 0..depthSpan()-1} have cells; deeper ones answer 0. */
  public int depthSpan() {
    return depthSpan;
  }
}
