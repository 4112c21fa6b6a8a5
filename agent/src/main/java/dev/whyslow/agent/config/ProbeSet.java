package dev.whyslow.agent.config;

/**
 * Which probe families the agent inserts. Scalar pairs are off unless asked for: they put several
 * probe calls behind every int/long store, which is meant for in-house runs, not production.
 *
 * @param branches conditional jumps (branch and loop-branch predicates)
 * @param returns returns of numbers, booleans and references
 * @param scalarPairs int/long local stores compared with the local's old value and other locals
 * @param scalarPairPartners most other locals one store is compared with (the old value is always
 *     compared); at least 0
 * @param fastPath whether methods whose loops hold probes get CBI's fast path: a countdown check
 *     per region instead of per probe, in a copy of the code with bare decrements ({@code
 *     probes.fastpath}, on by default; off only to compare or to rule it out)
 */
public record ProbeSet(
    boolean branches,
    boolean returns,
    boolean scalarPairs,
    int scalarPairPartners,
    boolean fastPath) {
  /** Partners per store unless configured: the nearest four slots, usually the nearby variables. */
  public static final int DEFAULT_SCALAR_PAIR_PARTNERS = 4;

  /** What {@code probes=branch,return}, the default, inserts. */
  public static final ProbeSet DEFAULT = new ProbeSet(true, true);

  /** Every family, as {@code probes=all} asks. */
  public static final ProbeSet ALL = new ProbeSet(true, true, true, DEFAULT_SCALAR_PAIR_PARTNERS);

  public ProbeSet {
    if (scalarPairPartners < 0) {
      throw new IllegalArgumentException(
          "scalar pair partners must be >= 0, was " + scalarPairPartners);
    }
  }

  /** The families, with the fast path. */
  public ProbeSet(boolean branches, boolean returns, boolean scalarPairs, int scalarPairPartners) {
    this(branches, returns, scalarPairs, scalarPairPartners, true);
  }

  /** The same families, with or without the fast path. */
  public ProbeSet withFastPath(boolean on) {
    return new ProbeSet(branches, returns, scalarPairs, scalarPairPartners, on);
  }

  /** Branches and/or returns, without scalar pairs. */
  public ProbeSet(boolean branches, boolean returns) {
    this(branches, returns, false, DEFAULT_SCALAR_PAIR_PARTNERS);
  }

  public boolean any() {
    return branches || returns || scalarPairs;
  }

  /** The families as {@code probes} spells them, e.g. {@code branch,return,scalar-pair}. */
  @Override
  public String toString() {
    StringBuilder out = new StringBuilder();
    if (branches) {
      out.append("branch");
    }
    if (returns) {
      out.append(out.length() > 0 ? "," : "").append("return");
    }
    if (scalarPairs) {
      out.append(out.length() > 0 ? "," : "")
          .append("scalar-pair (")
          .append(scalarPairPartners)
          .append(" partners)");
    }
    if (!fastPath) {
      out.append(out.length() > 0 ? ", " : "").append("no fast path");
    }
    return out.toString();
  }
}
