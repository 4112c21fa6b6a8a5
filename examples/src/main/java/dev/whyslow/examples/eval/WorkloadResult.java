package dev.whyslow.examples.eval;

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
 * @param exact rank and diagnosis per column, rate 1, {@code runsPerSide} real runs per side
 * @param sampled rank and diagnosis per expressible column, real runs at the sampling rate
 * @param emulated per emulated run count, per expressible column, the rank in each trial
 * @param medianGoodMicros median time of the good inputs' work in the sampled runs
 * @param medianBadMicros median time of the bad inputs' work in the sampled runs
 * @param took wall time of this workload's evaluation
 */
public record WorkloadResult(
    Workload workload,
    List<RootCause> rootCauses,
    Map<Column, RootCauseRanker.Ranked> exact,
    Map<Column, RootCauseRanker.Ranked> sampled,
    Map<Integer, Map<Column, List<Rank>>> emulated,
    long medianGoodMicros,
    long medianBadMicros,
    Duration took) {

  /** The rank without sampling in {@code column}; {@code -} when it was not evaluated. */
  public Rank exactRank(Column column) {
    RootCauseRanker.Ranked ranked = exact.get(column);
    return ranked == null ? Rank.notExpressible() : ranked.rank();
  }

  /** The rank with the real sampled runs in {@code column}; {@code -} when not evaluated. */
  public Rank sampledRank(Column column) {
    RootCauseRanker.Ranked ranked = sampled.get(column);
    return ranked == null ? Rank.notExpressible() : ranked.rank();
  }

  /** Whether the suitable column ranks the root cause first without sampling. */
  public boolean suitableFirstWithoutSampling() {
    return exactRank(workload.suitable()).isFirst();
  }

  /** Whether the suitable column ranks the root cause first with the real sampled runs. */
  public boolean suitableFirstWithRealSampling() {
    return sampledRank(workload.suitable()).isFirst();
  }
}
