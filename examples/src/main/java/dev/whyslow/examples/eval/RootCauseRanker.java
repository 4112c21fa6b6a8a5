package dev.whyslow.examples.eval;

import dev.whyslow.daemon.diagnosis.DiagnosisOptions;
import dev.whyslow.daemon.diagnosis.DiagnosisReport;
import dev.whyslow.daemon.diagnosis.DiagnosisRequest;
import dev.whyslow.daemon.diagnosis.DiagnosisService;
import dev.whyslow.daemon.diagnosis.ReportedPredictor;
import dev.whyslow.protocol.Site;
import dev.whyslow.storage.StoredRun;
import java.util.List;
import java.util.Map;

/**
 * Asks whyslowd's diagnosis, with its default settings, for one column's ranking and finds the root
 * cause in it: the best-ranked predictor that any of the workload's markers names.
 */
public final class RootCauseRanker {
  /** A diagnosis and where the root cause is in it. */
  public record Ranked(Rank rank, DiagnosisReport report) {}

  private final DiagnosisService diagnosis = DiagnosisService.withDefaultModels();
  private final int topN;

  /**
   * @param topN how many predictors each diagnosis returns; a root cause below is {@code >top}
   */
  public RootCauseRanker(int topN) {
    this.topN = topN;
  }

  /** Whether any of {@code causes} is one of {@code column}'s predicates. */
  public static boolean expressible(Column column, List<RootCause> causes) {
    for (RootCause cause : causes) {
      if (cause.expressibleIn(column)) {
        return true;
      }
    }
    return false;
  }

  /**
   * Diagnoses {@code runs} with {@code column}'s model and predicates. The rank is {@code -} when
   * the column cannot express the root cause (the report is still made, to show what the model
   * ranks instead).
   */
  public Ranked rank(
      String service,
      Column column,
      List<StoredRun> runs,
      Map<Long, Site> sites,
      List<RootCause> causes) {
    long from = Long.MAX_VALUE;
    long to = Long.MIN_VALUE;
    for (StoredRun run : runs) {
      from = Math.min(from, run.run().startEpochMillis());
      to = Math.max(to, run.run().startEpochMillis() + 1);
    }
    DiagnosisReport report =
        diagnosis.diagnose(
            DiagnosisRequest.of(service, Math.min(from, to), to)
                .withModel(column.model())
                .withFilter(column.filter())
                .withTopN(topN)
                .withOptions(DiagnosisOptions.defaults()),
            runs,
            sites);
    if (!expressible(column, causes)) {
      return new Ranked(Rank.notExpressible(), report);
    }
    for (ReportedPredictor predictor : report.predictors()) {
      for (RootCause cause : causes) {
        if (cause.matches(predictor)) {
          return new Ranked(Rank.at(predictor.rank()), report);
        }
      }
    }
    return new Ranked(Rank.notInTop(), report);
  }
}
