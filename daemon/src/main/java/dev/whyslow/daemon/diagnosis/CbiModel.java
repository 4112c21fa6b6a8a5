package dev.whyslow.daemon.diagnosis;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The CBI basic model with iterative elimination (Liblit et al., PLDI'05), as Song and Lu used it.
 * A predicate is a candidate while the lower bound of its Increase at the configured confidence is
 * above zero and it is true in enough runs; each round picks the candidate of highest Importance,
 * discards every run (failing or successful) in which it is true, and rescores the rest on the
 * remaining runs, until no candidate or no failing run is left. It sees whether a predicate was
 * ever true in a run, not how often, so loops that merely iterate more are ΔLDA's job.
 */
public final class CbiModel implements DiagnosisModel {
  public static final String NAME = "cbi";

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public PredicateFilter defaultFilter() {
    return PredicateFilter.all();
  }

  @Override
  public Ranking rank(PredicateTable table, DiagnosisOptions options) {
    List<String> reasons = RunSupport.check(table, options, "CBI");
    if (!reasons.isEmpty()) {
      return Ranking.insufficient(NAME, reasons);
    }
    CbiOptions cbi = options.cbi();
    double z = cbi.z();
    CbiElimination state = new CbiElimination(table);

    // Round 1 over every predicate.
    int predicates = table.predicateCount();
    int[] alive = new int[predicates];
    CbiStats[] current = new CbiStats[predicates];
    int aliveCount = 0;
    int uncertain = 0;
    int unsupported = 0;
    for (int p = 0; p < predicates; p++) {
      CbiStats stats = CbiStats.of(state.counts(p), z, cbi.importance());
      if (stats.passes(cbi.minSupport())) {
        alive[aliveCount] = p;
        current[aliveCount++] = stats;
      } else if (stats.lowerBound() > 0) {
        unsupported++;
      } else if (stats.increase() > 0) {
        uncertain++;
      }
    }
    if (aliveCount == 0) {
      return Ranking.insufficient(
          NAME, List.of(noCandidateReason(predicates, cbi, uncertain, unsupported)));
    }
    CbiStats[] initial = new CbiStats[predicates];
    for (int c = 0; c < aliveCount; c++) {
      initial[alive[c]] = current[c];
    }
    state.indexCandidates(alive, aliveCount);

    List<RankedPredicate> ranked = new ArrayList<>();
    int round = 1;
    while (aliveCount > 0 && state.numFailing() > 0) {
      int best = 0;
      for (int c = 1; c < aliveCount; c++) {
        if (better(current[c], alive[c], current[best], alive[best])) {
          best = c;
        }
      }
      int winner = alive[best];
      ranked.add(
          new RankedPredicate(
              round,
              winner,
              table.siteKey(winner),
              table.predicateIndex(winner),
              table.counts(winner),
              new CbiScores(round, initial[winner], current[best])));
      state.discardRunsWhereTrue(winner);
      // Rescore the others on the remaining runs; candidates only ever drop out.
      int kept = 0;
      for (int c = 0; c < aliveCount; c++) {
        if (c == best) {
          continue;
        }
        CbiStats stats = CbiStats.of(state.counts(alive[c]), z, cbi.importance());
        if (stats.passes(cbi.minSupport())) {
          alive[kept] = alive[c];
          current[kept++] = stats;
        }
      }
      aliveCount = kept;
      round++;
    }
    List<String> notes = new ArrayList<>();
    if (state.numFailing() > 0) {
      notes.add(
          state.numFailing()
              + " of "
              + table.failingRunCount()
              + " failing runs are not explained by any ranked predictor: their cause was not"
              + " sampled in them, or is one CBI cannot see because it only asks whether a"
              + " predicate was ever true (try delta-lda for loops that iterate more)");
    }
    return new Ranking(NAME, ranked, List.of(), notes);
  }

  /** Importance, then Increase, then F(P true), then the lower id: a total, stable order. */
  private static boolean better(CbiStats a, int idA, CbiStats b, int idB) {
    int c = Double.compare(a.importance(), b.importance());
    if (c == 0) {
      c = Double.compare(a.increase(), b.increase());
    }
    if (c == 0) {
      c = Integer.compare(a.counts().failingTrue(), b.counts().failingTrue());
    }
    return c > 0 || (c == 0 && idA < idB);
  }

  private static String noCandidateReason(
      int predicates, CbiOptions cbi, int uncertain, int unsupported) {
    return String.format(
        Locale.ROOT,
        "no predicate passed CBI's test (lower bound of Increase > 0 at %s confidence, true in at"
            + " least %d runs) among %d predicates: %d had a positive Increase too uncertain to"
            + " trust and %d %s true in too few runs; collect more runs, or try delta-lda for"
            + " loops that iterate more in slow runs",
        cbi.confidence(),
        cbi.minSupport(),
        predicates,
        uncertain,
        unsupported,
        unsupported == 1 ? "was" : "were");
  }
}
