package dev.whyslow.examples.eval;

import dev.whyslow.daemon.diagnosis.DiagnosisReport;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * Everything the evaluation found for one workload: the root cause's rank per column without
 * sampling (with the reports, to show what ranked above it), with real sampled runs, and in every
 * trial of every emulated setting, plus how much slower bad inputs were.
 *
 * @param workload the workload
 * @param rootCauses its marked root causes
 * @param exact rank per column, rate 1, {@code runsPerSide} real runs per side
 * @param exactReports the diagnosis behind each of those ranks
 * @param sampled rank per expressible column, real runs at the sampling rate
 * @param sampledReports the diagnosis behind each of those ranks
 * @param emulated per emulated run count, per expressible column, the rank in each trial
 * @param medianGoodMicros median time of the good inputs' work in the sampled runs
 * @param medianBadMicros median time of the bad inputs' work in the sampled runs
 * @param took wall time of this workload's evaluation
 */
public record WorkloadResult(
    Workload workload,
    List<RootCause> rootCauses,
    Map<Column, Rank> exact,
    Map<Column, DiagnosisReport> exactReports,
    Map<Column, Rank> sampled,
    Map<Column, DiagnosisReport> sampledReports,
    Map<Integer, Map<Column, List<Rank>>> emulated,
    long medianGoodMicros,
    long medianBadMicros,
    Duration took) {

  /** Whether the suitable column ranks the root cause first without sampling. */
  public boolean suitableFirstWithoutSampling() {
    return exact.getOrDefault(workload.suitable(), Rank.notInTop()).isFirst();
  }

  /** Whether the suitable column ranks the root cause first with the real sampled runs. */
  public boolean suitableFirstWithRealSampling() {
    return sampled.getOrDefault(workload.suitable(), Rank.notInTop()).isFirst();
  }
}
