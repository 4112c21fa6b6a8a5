package dev.whyslow.daemon.diagnosis;

import dev.whyslow.daemon.diagnosis.CbiOptions.ImportanceBasis;

/**
 * CBI's scores of one predicate over one set of runs (Liblit et al., PLDI'05; Song and Lu §3.1.2).
 * Every division is guarded: an empty proportion is 0, and Importance is 0 unless both of its terms
 * are positive, so no score is ever NaN or infinite.
 *
 * @param counts the run counts the scores come from
 * @param failure F(P true) / (S(P true) + F(P true))
 * @param context F(P observed) / (S(P observed) + F(P observed))
 * @param increase failure − context
 * @param standardError Wald standard error of the difference of the two proportions
 * @param lowerBound increase − z · standardError
 * @param recall log F(P true) / log NumF, clamped to [0, 1] (1 when F(P true) = NumF = 1)
 * @param importance harmonic mean of increase (or the lower bound) and recall
 */
public record CbiStats(
    PredicateCounts counts,
    double failure,
    double context,
    double increase,
    double standardError,
    double lowerBound,
    double recall,
    double importance) {

  /** Scores {@code counts} with critical value {@code z}. */
  public static CbiStats of(PredicateCounts counts, double z, ImportanceBasis basis) {
    int ft = counts.failingTrue();
    int nTrue = ft + counts.successTrue();
    int nObserved = counts.failingObserved() + counts.successObserved();
    double failure = nTrue == 0 ? 0 : (double) ft / nTrue;
    double context = nObserved == 0 ? 0 : (double) counts.failingObserved() / nObserved;
    double increase = failure - context;
    double variance =
        (nTrue == 0 ? 0 : failure * (1 - failure) / nTrue)
            + (nObserved == 0 ? 0 : context * (1 - context) / nObserved);
    double standardError = Math.sqrt(variance);
    double lowerBound = increase - z * standardError;
    double recall = recall(ft, counts.numFailing());
    double score = basis == ImportanceBasis.INCREASE ? increase : lowerBound;
    return new CbiStats(
        counts,
        failure,
        context,
        increase,
        standardError,
        lowerBound,
        recall,
        harmonicMean(score, recall));
  }

  /** Whether the predicate passes CBI's filter: LB &gt; 0 and true in enough runs. */
  public boolean passes(int minSupport) {
    return lowerBound > 0 && counts.failingTrue() + counts.successTrue() >= minSupport;
  }

  static double recall(int failingTrue, int numFailing) {
    if (failingTrue <= 0 || numFailing <= 0) {
      return 0;
    }
    if (numFailing == 1) {
      // log 1 = 0 in the denominator: a predicate true in the only failing run recalls all of it.
      return 1;
    }
    double r = Math.log(failingTrue) / Math.log(numFailing);
    return Math.max(0, Math.min(1, r));
  }

  static double harmonicMean(double a, double b) {
    // 2 / (1/a + 1/b) written so that it cannot divide by zero.
    return a > 0 && b > 0 ? 2 * a * b / (a + b) : 0;
  }
}
