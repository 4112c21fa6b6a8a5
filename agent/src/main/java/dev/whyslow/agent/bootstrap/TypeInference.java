package dev.whyslow.agent.bootstrap;

/**
 * Infers a unit's type from the guards it passed (PerfGuard §4.4): each guard's candidate set adds
 * one hit to every type in it, the type with most hits wins and ties go to the smallest known
 * threshold, so a doubtful unit is checked against the strictest one. One instance per thread,
 * reset at each unit start; nothing here allocates.
 */
public final class TypeInference {
  private final int[] hits;
  private final long typeMask;

  /** Types with at least one hit since the last reset. */
  private long seen;

  /**
   * @param maxTypes how many types candidate bits can name, 1..64; higher bits are ignored
   */
  public TypeInference(int maxTypes) {
    if (maxTypes < 1 || maxTypes > 64) {
      throw new IllegalArgumentException(
          new StringBuilder("maxTypes must be 1..64 (bits of a long), was ")
              .append(maxTypes)
              .toString());
    }
    this.hits = new int[maxTypes];
    this.typeMask = maxTypes == 64 ? -1L : (1L << maxTypes) - 1;
  }

  /** Forgets the previous unit's hits; costs one store per type that had hits. */
  public void reset() {
    long s = seen;
    while (s != 0L) {
      hits[Long.numberOfTrailingZeros(s)] = 0;
      s &= s - 1;
    }
    seen = 0L;
  }

  /** Counts a guard: one hit for every type in {@code candidates} (0 = no idea, no effect). */
  public void hit(long candidates) {
    long c = candidates & typeMask;
    seen |= c;
    while (c != 0L) {
      hits[Long.numberOfTrailingZeros(c)]++;
      c &= c - 1;
    }
  }

  /**
   * The most likely type: most hits; among ties the smallest threshold, where 0 (or a type beyond
   * the array) means none known and ranks as +infinity; then the smallest index.
   *
   * @return the type index, or -1 when no guard has hit since the last reset
   */
  public int best(long[] thresholdNanosByType) {
    int best = -1;
    int bestHits = 0;
    long bestThreshold = Long.MAX_VALUE;
    long s = seen;
    while (s != 0L) {
      int t = Long.numberOfTrailingZeros(s);
      s &= s - 1;
      int h = hits[t];
      long threshold = thresholdOf(thresholdNanosByType, t);
      // Bits come in ascending index order, so strict comparisons keep the smallest index on ties.
      if (h > bestHits || (h == bestHits && threshold < bestThreshold)) {
        best = t;
        bestHits = h;
        bestThreshold = threshold;
      }
    }
    return best;
  }

  /** Hits of type {@code type} since the last reset (for tests and audits). */
  public int hitsOf(int type) {
    return type >= 0 && type < hits.length ? hits[type] : 0;
  }

  private static long thresholdOf(long[] thresholds, int type) {
    if (thresholds == null || type >= thresholds.length) {
      return Long.MAX_VALUE;
    }
    long t = thresholds[type];
    return t <= 0L ? Long.MAX_VALUE : t;
  }
}
