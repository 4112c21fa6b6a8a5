package dev.whyslow.daemon.diagnosis;

import java.util.Objects;
import java.util.Optional;

/**
 * What to diagnose and how: the service and window (for the report; the caller selects the runs),
 * the model, the predicates to look at (the model's default when empty), the settings and how many
 * predictors to show.
 *
 * @param service service name
 * @param fromInclusiveMillis window start, epoch milliseconds
 * @param toExclusiveMillis window end, epoch milliseconds
 * @param model {@code cbi} or {@code delta-lda}
 * @param filter which predicates; empty for the model's default
 * @param options model settings
 * @param topN how many predictors the report shows, &gt;= 1
 */
public record DiagnosisRequest(
    String service,
    long fromInclusiveMillis,
    long toExclusiveMillis,
    String model,
    Optional<PredicateFilter> filter,
    DiagnosisOptions options,
    int topN) {

  public static final int DEFAULT_TOP_N = 10;

  public DiagnosisRequest {
    Objects.requireNonNull(service, "service");
    Objects.requireNonNull(model, "model");
    Objects.requireNonNull(filter, "filter");
    Objects.requireNonNull(options, "options");
    if (fromInclusiveMillis > toExclusiveMillis) {
      throw new IllegalArgumentException(
          "diagnosis window starts after it ends: from="
              + fromInclusiveMillis
              + " > to="
              + toExclusiveMillis);
    }
    if (topN < 1) {
      throw new IllegalArgumentException("topN must be >= 1 (default 10), was " + topN);
    }
  }

  /** CBI with default settings over the window, top 10. */
  public static DiagnosisRequest of(
      String service, long fromInclusiveMillis, long toExclusiveMillis) {
    return new DiagnosisRequest(
        service,
        fromInclusiveMillis,
        toExclusiveMillis,
        CbiModel.NAME,
        Optional.empty(),
        DiagnosisOptions.defaults(),
        DEFAULT_TOP_N);
  }

  public DiagnosisRequest withModel(String value) {
    return new DiagnosisRequest(
        service, fromInclusiveMillis, toExclusiveMillis, value, filter, options, topN);
  }

  public DiagnosisRequest withFilter(PredicateFilter value) {
    return new DiagnosisRequest(
        service, fromInclusiveMillis, toExclusiveMillis, model, Optional.of(value), options, topN);
  }

  public DiagnosisRequest withOptions(DiagnosisOptions value) {
    return new DiagnosisRequest(
        service, fromInclusiveMillis, toExclusiveMillis, model, filter, value, topN);
  }

  public DiagnosisRequest withTopN(int value) {
    return new DiagnosisRequest(
        service, fromInclusiveMillis, toExclusiveMillis, model, filter, options, value);
  }
}
