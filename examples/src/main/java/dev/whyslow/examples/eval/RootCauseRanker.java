package dev.whyslow.examples.eval;

import dev.whyslow.daemon.diagnosis.DiagnosisOptions;
import dev.whyslow.daemon.diagnosis.DiagnosisReport;
import dev.whyslow.daemon.diagnosis.DiagnosisRequest;
import dev.whyslow.daemon.diagnosis.DiagnosisService;
import dev.whyslow.daemon.diagnosis.ReportedPredictor;
import dev.whyslow.protocol.Site;
import dev.whyslow.protocol.SiteKeys;
import dev.whyslow.storage.StoredRun;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * Asks whyslowd's diagnosis, with its default settings, for one column's ranking and finds the root
 * cause in it: the best-ranked predictor that any of the workload's markers names.
 */
public final class RootCauseRanker {
  /**
   * A diagnosis and where the root cause is in it.
   *
   * @param rank the best rank of a root-cause predicate
   * @param report the diagnosis
   * @param rootCauseRanks the ranks of every predictor in the report that is a root cause
   */
  public record Ranked(Rank rank, DiagnosisReport report, Set<Integer> rootCauseRanks) {}

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
    Set<Integer> rootCauseRanks = new TreeSet<>();
    for (ReportedPredictor predictor : report.predictors()) {
      if (isRootCause(predictor, sites, causes)) {
        rootCauseRanks.add(predictor.rank());
      }
    }
    Rank rank;
    if (!expressible(column, causes)) {
      rank = Rank.notExpressible();
    } else if (rootCauseRanks.isEmpty()) {
      rank = Rank.notInTop();
    } else {
      rank = Rank.at(rootCauseRanks.iterator().next());
    }
    return new Ranked(rank, report, rootCauseRanks);
  }

  /** Whether a report's predictor is one of {@code causes}, by its site in the site table. */
  static boolean isRootCause(
      ReportedPredictor predictor, Map<Long, Site> sites, List<RootCause> causes) {
    Site site = sites.get(SiteKeys.parse(predictor.siteKey()));
    if (site == null) {
      return false;
    }
    for (RootCause cause : causes) {
      if (cause.matches(site, predictor.predicateIndex())) {
        return true;
      }
    }
    return false;
  }
}
