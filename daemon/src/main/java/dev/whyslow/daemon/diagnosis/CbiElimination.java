package dev.whyslow.daemon.diagnosis;

/**
 * The mutable run counts CBI's iterative elimination works on. Discarding a run subtracts it from
 * every count it contributed to, so each run is visited once over the whole elimination and the
 * total work stays O(non-zeros), however many rounds there are.
 */
final class CbiElimination {
  private final PredicateTable table;
  private final int[] failingTrue;
  private final int[] successTrue;
  private final int[] failingObserved;
  private final int[] successObserved;
  private final boolean[] discarded;
  private int numFailing;
  private int numSuccess;

  // Runs where each candidate is true (CSR over candidates), built once after round 1.
  private int[] candidateOf;
  private int[] candidateRunStart;
  private int[] candidateRuns;

  CbiElimination(PredicateTable table) {
    this.table = table;
    failingTrue = table.failingTrueRuns().clone();
    successTrue = table.successTrueRuns().clone();
    failingObserved = table.failingObservedRuns().clone();
    successObserved = table.successObservedRuns().clone();
    discarded = new boolean[table.runCount()];
    numFailing = table.failingRunCount();
    numSuccess = table.successRunCount();
  }

  int numFailing() {
    return numFailing;
  }

  PredicateCounts counts(int predicate) {
    int site = table.siteIndex(predicate);
    return new PredicateCounts(
        failingTrue[predicate],
        successTrue[predicate],
        failingObserved[site],
        successObserved[site],
        numFailing,
        numSuccess);
  }

  /**
   * Indexes, for each of {@code candidates}, the runs where it is true. One pass over the table.
   */
  void indexCandidates(int[] candidates, int count) {
    candidateOf = new int[table.predicateCount()];
    java.util.Arrays.fill(candidateOf, -1);
    for (int c = 0; c < count; c++) {
      candidateOf[candidates[c]] = c;
    }
    int[] truePredicate = table.truePredicate();
    candidateRunStart = new int[count + 1];
    for (int p : truePredicate) {
      int c = candidateOf[p];
      if (c >= 0) {
        candidateRunStart[c + 1]++;
      }
    }
    for (int c = 0; c < count; c++) {
      candidateRunStart[c + 1] += candidateRunStart[c];
    }
    candidateRuns = new int[candidateRunStart[count]];
    int[] fill = java.util.Arrays.copyOf(candidateRunStart, count);
    int[] trueStart = table.trueStart();
    for (int r = 0; r < table.runCount(); r++) {
      for (int i = trueStart[r]; i < trueStart[r + 1]; i++) {
        int c = candidateOf[truePredicate[i]];
        if (c >= 0) {
          candidateRuns[fill[c]++] = r;
        }
      }
    }
  }

  /** Discards every remaining run in which {@code predicate} (an indexed candidate) is true. */
  void discardRunsWhereTrue(int predicate) {
    int c = candidateOf[predicate];
    for (int i = candidateRunStart[c]; i < candidateRunStart[c + 1]; i++) {
      int run = candidateRuns[i];
      if (!discarded[run]) {
        discard(run);
      }
    }
  }

  private void discard(int run) {
    discarded[run] = true;
    boolean failing = table.isFailing(run);
    if (failing) {
      numFailing--;
    } else {
      numSuccess--;
    }
    int[] observed = failing ? failingObserved : successObserved;
    int[] observedStart = table.observedStart();
    int[] observedSite = table.observedSite();
    for (int i = observedStart[run]; i < observedStart[run + 1]; i++) {
      observed[observedSite[i]]--;
    }
    int[] trueRuns = failing ? failingTrue : successTrue;
    int[] trueStart = table.trueStart();
    int[] truePredicate = table.truePredicate();
    for (int i = trueStart[run]; i < trueStart[run + 1]; i++) {
      trueRuns[truePredicate[i]]--;
    }
  }
}
