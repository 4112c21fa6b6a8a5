package dev.whyslow.daemon.diagnosis;

/**
 * A statistical model that ranks predicates as failure predictors. CBI and ΔLDA sit behind this one
 * seam and pass the same {@code DiagnosisModelContract}; a later model only has to implement it.
 * Implementations are pure functions of their input: no I/O, and the same table and options give
 * the same ranking.
 */
public interface DiagnosisModel {

  /** Short name used by the API and the CLI, e.g. {@code cbi} or {@code delta-lda}. */
  String name();

  /** The predicates this model looks at when the request names none. */
  PredicateFilter defaultFilter();

  /**
   * Ranks the table's predicates, best predictor first. When the data cannot support an answer the
   * ranking is empty and {@link Ranking#insufficient()} says why.
   */
  Ranking rank(PredicateTable table, DiagnosisOptions options);
}
