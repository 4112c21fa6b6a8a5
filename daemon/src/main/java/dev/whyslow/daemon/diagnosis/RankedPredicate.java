package dev.whyslow.daemon.diagnosis;

import java.util.Objects;

/**
 * One predicate in a ranking: which it is, the model's scores, and the whole-window run counts
 * behind them.
 *
 * @param rank position in the ranking, from 1
 * @param predicateId dense id in the {@link PredicateTable} the ranking came from
 * @param siteKey stable site key
 * @param predicateIndex index within the site's kind, e.g. {@code SiteKind.TAKEN}
 * @param counts F(P true), S(P true), F(P observed), S(P observed), NumF and NumS over all runs
 * @param scores the model's scores
 */
public record RankedPredicate(
    int rank,
    int predicateId,
    long siteKey,
    int predicateIndex,
    PredicateCounts counts,
    PredicateScores scores) {

  public RankedPredicate {
    Objects.requireNonNull(counts, "counts");
    Objects.requireNonNull(scores, "scores");
  }
}
