package dev.whyslow.daemon.diagnosis;

import java.util.List;
import java.util.Objects;

/**
 * A diagnosis of one service over one window: which runs it used, which model with which settings,
 * the top predictors, and, when the data could not support an answer, why. This is what {@code GET
 * /api/v1/diagnosis} returns and the CLI prints.
 *
 * @param service the service diagnosed
 * @param fromInclusiveMillis window start, epoch milliseconds
 * @param toExclusiveMillis window end, epoch milliseconds
 * @param model the model's name, e.g. {@code cbi}
 * @param filter the predicate filter, e.g. {@code all} or {@code loop-branch}
 * @param options the settings used
 * @param successRuns successful runs used
 * @param failingRuns failing runs used
 * @param ignoredRuns do-not-care runs left out
 * @param samplingRates the distinct sampling rates of the runs used, ascending
 * @param predicatesConsidered predicates in the table the model ranked
 * @param rankedPredicates how many predicates the model ranked (the report shows the top ones)
 * @param predictors the top predictors, best first
 * @param insufficient why there is no answer; empty when there is one
 * @param notes caveats that do not stop the answer
 */
public record DiagnosisReport(
    String service,
    long fromInclusiveMillis,
    long toExclusiveMillis,
    String model,
    String filter,
    DiagnosisOptions options,
    int successRuns,
    int failingRuns,
    int ignoredRuns,
    List<Double> samplingRates,
    int predicatesConsidered,
    int rankedPredicates,
    List<ReportedPredictor> predictors,
    List<String> insufficient,
    List<String> notes) {

  public DiagnosisReport {
    Objects.requireNonNull(service, "service");
    Objects.requireNonNull(model, "model");
    Objects.requireNonNull(filter, "filter");
    Objects.requireNonNull(options, "options");
    samplingRates = List.copyOf(samplingRates);
    predictors = List.copyOf(predictors);
    insufficient = List.copyOf(insufficient);
    notes = List.copyOf(notes);
  }

  /**
   * True when the data could not support any predictor (not {@code isInsufficient}: JSON would read
   * it as the {@code insufficient} field).
   */
  public boolean lacksData() {
    return !insufficient.isEmpty();
  }
}
