package dev.whyslow.examples.eval;

import dev.whyslow.protocol.Run;
import dev.whyslow.protocol.SiteCounts;
import dev.whyslow.protocol.SiteKeys;
import dev.whyslow.protocol.SiteKind;
import dev.whyslow.storage.StoredRun;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * Turns a run recorded at sampling rate 1 into one sampled at a lower rate, each evaluation kept
 * independently with probability {@code rate}: a binomial draw per predicate outcome, the
 * per-evaluation sampling of CBI and of Song and Lu, whose ΔLDA drivers emulated their sampler
 * offline the same way.
 *
 * <p>The agent records each evaluation with that probability too, but at production rates it
 * samples whole invocations (README, "Sampled invocations"): one invocation in 20 runs its probes,
 * at the rate over that share. Evaluations in different invocations are still independent, so for a
 * site evaluated at most once per invocation this is exactly the agent's distribution; evaluations
 * in one invocation, a loop's, are kept together or not at all, and so are those of a short method
 * called in a loop (it follows its caller's draw), which this thinning does not model: the runs
 * really sampled by the agent are the check on it.
 */
public final class SamplingEmulator {
  private SamplingEmulator() {}

  /**
   * {@code run} (recorded at rate 1) as if sampled at {@code rate}; sites left without a sampled
   * evaluation are dropped, as the agent drops them.
   *
   * @param kinds the kind of every site in the run, by site key
   * @throws IllegalArgumentException when the run was not recorded at rate 1, a site's kind is
   *     unknown, or its counts are not a partition of its evaluations
   */
  public static StoredRun thin(
      StoredRun stored,
      double rate,
      Map<Long, SiteKind> kinds,
      SplittableRandom random,
      long newRunId) {
    Run run = stored.run();
    if (run.samplingRate() != 1.0) {
      throw new IllegalArgumentException(
          "only runs recorded at sampling rate 1 can be thinned, run "
              + stored.runId()
              + " was sampled at "
              + run.samplingRate());
    }
    List<SiteCounts> thinned = new ArrayList<>();
    for (SiteCounts counts : run.sites()) {
      SiteKind kind = kinds.get(counts.siteKey());
      if (kind == null) {
        throw new IllegalArgumentException(
            "site "
                + SiteKeys.format(counts.siteKey())
                + " of run "
                + stored.runId()
                + " has no metadata");
      }
      SiteCounts sampled = thin(counts, kind, rate, random);
      if (sampled.observed() > 0) {
        thinned.add(sampled);
      }
    }
    Run sampled =
        new Run(
            run.sequence(),
            run.kind(),
            run.startEpochMillis(),
            run.durationNanos(),
            run.label(),
            run.unitType(),
            rate,
            thinned);
    return new StoredRun(newRunId, stored.origin(), sampled);
  }

  /** One site's counts thinned: every evaluation kept with probability {@code rate}. */
  static SiteCounts thin(SiteCounts counts, SiteKind kind, double rate, SplittableRandom random) {
    long[] c = counts.trueCounts();
    if (kind.predicateCount() == 2) {
      // Branches, booleans and references: the two predicates are the two outcomes.
      requirePartition(counts, c[0] + c[1]);
      long first = binomial(c[0], rate, random);
      long second = binomial(c[1], rate, random);
      return new SiteCounts(counts.siteKey(), first + second, new long[] {first, second});
    }
    // Numeric returns and scalar pairs: each evaluation is <, == or >; the six predicates are
    // unions of those three outcomes.
    long lt = c[SiteKind.LT];
    long eq = c[SiteKind.EQ];
    long gt = c[SiteKind.GT];
    requirePartition(counts, lt + eq + gt);
    long less = binomial(lt, rate, random);
    long equal = binomial(eq, rate, random);
    long greater = binomial(gt, rate, random);
    long[] sampled = new long[6];
    sampled[SiteKind.LT] = less;
    sampled[SiteKind.LE] = less + equal;
    sampled[SiteKind.GT] = greater;
    sampled[SiteKind.GE] = equal + greater;
    sampled[SiteKind.EQ] = equal;
    sampled[SiteKind.NE] = less + greater;
    return new SiteCounts(counts.siteKey(), less + equal + greater, sampled);
  }

  private static void requirePartition(SiteCounts counts, long outcomes) {
    if (outcomes != counts.observed()) {
      throw new IllegalArgumentException(
          "site "
              + SiteKeys.format(counts.siteKey())
              + " has "
              + counts.observed()
              + " evaluations but its outcomes add up to "
              + outcomes
              + "; cannot emulate sampling for it");
    }
  }

  /**
   * A Binomial({@code n}, {@code p}) draw, by jumping from one success to the next with geometric
   * gaps (the agent's own countdown), so it costs O(n·p) rather than O(n).
   */
  static long binomial(long n, double p, SplittableRandom random) {
    if (p >= 1) {
      return n;
    }
    if (n <= 0 || p <= 0) {
      return 0;
    }
    double logQ = Math.log1p(-p);
    long successes = 0;
    long position = 0;
    while (true) {
      double u = 1.0 - random.nextDouble(); // in (0, 1]
      position += (long) Math.floor(Math.log(u) / logQ) + 1;
      if (position > n) {
        return successes;
      }
      successes++;
    }
  }
}
