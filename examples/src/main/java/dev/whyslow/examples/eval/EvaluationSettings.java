package dev.whyslow.examples.eval;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.OptionalLong;

/**
 * How the evaluation runs: how many real runs per side at rate 1 (Song and Lu used 10) and how many
 * distinct rate-1 inputs the emulation draws from, the sampling rate, the run counts of the
 * emulated settings and how many trials each gets, the report's top N, the agent's probes and how
 * many workload JVMs run at once, and whether the agent's sampler is seeded.
 *
 * @param runsPerSide real runs per side at rate 1 for Table 1, and real sampled runs per side
 * @param poolPerSide distinct rate-1 runs per side the emulation draws from, &gt;= runsPerSide
 * @param rate the sampling rate of the sampled settings
 * @param emulatedRunCounts runs per side of the emulated settings, e.g. 10, 100, 1000
 * @param trials emulation trials per setting
 * @param topN predictors each diagnosis returns
 * @param probes the agent's probe families, e.g. {@code branch,return}
 * @param jobs workload JVMs at once
 * @param samplerSeed where present, each sampled workload JVM's {@code sampling.seed} derives from
 *     it, so that regenerating the report samples the same evaluations; empty (the default) draws
 *     afresh, as in production
 */
public record EvaluationSettings(
    int runsPerSide,
    int poolPerSide,
    double rate,
    List<Integer> emulatedRunCounts,
    int trials,
    int topN,
    String probes,
    int jobs,
    OptionalLong samplerSeed) {

  public EvaluationSettings {
    emulatedRunCounts = List.copyOf(emulatedRunCounts);
    Objects.requireNonNull(samplerSeed, "samplerSeed");
    if (runsPerSide < 1 || poolPerSide < runsPerSide) {
      throw new IllegalArgumentException(
          "need >= 1 run per side and a pool at least as large, got runs="
              + runsPerSide
              + " pool="
              + poolPerSide);
    }
    if (!(rate > 0 && rate <= 1)) {
      throw new IllegalArgumentException("sampling rate must be in (0, 1], was " + rate);
    }
    if (trials < 1 || topN < 1 || jobs < 1) {
      throw new IllegalArgumentException(
          "trials, top and jobs must be >= 1, got " + trials + ", " + topN + ", " + jobs);
    }
  }

  /**
   * 10 runs per side, a pool of 20, rate 1/10000, 10/100/1000 emulated runs, 5 trials, top 10,
   * every probe family (branches, returns and scalar pairs, as Song and Lu collected them).
   */
  public static EvaluationSettings defaults() {
    return new EvaluationSettings(
        10,
        20,
        1e-4,
        List.of(10, 100, 1000),
        5,
        10,
        "branch,return,scalar-pair",
        2,
        OptionalLong.empty());
  }

  /** Whether the agent records scalar pairs, so the scalar-pair column can be filled. */
  public boolean scalarPairs() {
    return List.of(probes.split(",")).contains("scalar-pair");
  }

  /** The table's columns: scalar pairs only when the agent records them. */
  public List<Column> columns() {
    List<Column> columns = new ArrayList<>();
    for (Column column : Column.values()) {
      if (column != Column.CBI_SCALAR_PAIR || scalarPairs()) {
        columns.add(column);
      }
    }
    return columns;
  }

  public EvaluationSettings withRunsPerSide(int runs, int pool) {
    return new EvaluationSettings(
        runs, pool, rate, emulatedRunCounts, trials, topN, probes, jobs, samplerSeed);
  }

  public EvaluationSettings withEmulatedRunCounts(List<Integer> counts) {
    return new EvaluationSettings(
        runsPerSide, poolPerSide, rate, counts, trials, topN, probes, jobs, samplerSeed);
  }

  public EvaluationSettings withTrials(int value) {
    return new EvaluationSettings(
        runsPerSide, poolPerSide, rate, emulatedRunCounts, value, topN, probes, jobs, samplerSeed);
  }

  public EvaluationSettings withTopN(int value) {
    return new EvaluationSettings(
        runsPerSide,
        poolPerSide,
        rate,
        emulatedRunCounts,
        trials,
        value,
        probes,
        jobs,
        samplerSeed);
  }

  public EvaluationSettings withProbes(String value) {
    return new EvaluationSettings(
        runsPerSide, poolPerSide, rate, emulatedRunCounts, trials, topN, value, jobs, samplerSeed);
  }

  public EvaluationSettings withJobs(int value) {
    return new EvaluationSettings(
        runsPerSide,
        poolPerSide,
        rate,
        emulatedRunCounts,
        trials,
        topN,
        probes,
        value,
        samplerSeed);
  }

  public EvaluationSettings withSamplerSeed(OptionalLong value) {
    return new EvaluationSettings(
        runsPerSide, poolPerSide, rate, emulatedRunCounts, trials, topN, probes, jobs, value);
  }
}
