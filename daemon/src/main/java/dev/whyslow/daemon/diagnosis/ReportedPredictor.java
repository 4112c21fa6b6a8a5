package dev.whyslow.daemon.diagnosis;

import java.util.Objects;

/**
 * One predictor as a person reads it: where it is, what it says in words, the model's scores, the
 * counts behind them and what kind of fix usually helps.
 *
 * @param rank position in the ranking, from 1
 * @param siteKey the site key as 16 hex digits
 * @param className binary class name, or {@code ""} when the site has no metadata
 * @param methodName method name, or {@code ""} when unknown
 * @param sourceFile source file, or {@code ""} when unknown
 * @param line source line, or -1 when unknown
 * @param kind site kind spelled like {@code loop-branch}, or {@code unknown}
 * @param predicateIndex index of the predicate within its site
 * @param predicate the predicate in words, e.g. {@code taken} or {@code > 0}
 * @param description e.g. {@code ArrayList.indexOf (ArrayList.java:312): loop branch "taken"}
 * @param counts F(P true), S(P true), F(P observed), S(P observed), NumF, NumS over all runs
 * @param scores the model's scores
 * @param fixHint the likely fix strategy
 */
public record ReportedPredictor(
    int rank,
    String siteKey,
    String className,
    String methodName,
    String sourceFile,
    int line,
    String kind,
    int predicateIndex,
    String predicate,
    String description,
    PredicateCounts counts,
    PredicateScores scores,
    FixHint fixHint) {

  public ReportedPredictor {
    Objects.requireNonNull(siteKey, "siteKey");
    Objects.requireNonNull(description, "description");
    Objects.requireNonNull(counts, "counts");
    Objects.requireNonNull(scores, "scores");
    Objects.requireNonNull(fixHint, "fixHint");
  }
}
