package dev.whyslow.daemon.diagnosis;

/**
 * Settings of ΔLDA. The defaults are Song and Lu's (2 usage topics, 1 bug topic, α = 0.1, β = 1,
 * deltaLDA's seed 194582, 200 sweeps). Unlike deltaLDA, which reads the final sample only, scores
 * are averaged over the samples after {@code burnInSweeps}, every {@code sampleLag} sweeps (100 and
 * 10 by default, so 10 samples); {@link #finalSampleOnly()} restores deltaLDA's behaviour.
 *
 * @param usageTopics topics every run may use
 * @param bugTopics topics only failing runs may use (their α is 0 for successful runs)
 * @param alpha Dirichlet prior weight of each allowed topic in a run
 * @param beta Dirichlet prior weight of each word in a topic
 * @param seed random seed; the same seed and table give the same ranking
 * @param sweeps Gibbs sweeps over all tokens
 * @param burnInSweeps sweeps before the first sample is read, in [0, sweeps)
 * @param sampleLag sweeps between samples read after burn-in, &gt;= 1
 * @param minFailingTokens a predicate is ranked only with at least this many sampled-true
 *     evaluations in failing runs
 * @param dropWordsAbsentFromFailingRuns leave out predicates never sampled true in a failing run:
 *     they cannot gain bug-topic mass and only dilute every topic by W·β
 * @param maxTokens when the vocabulary holds more tokens, all counts are thinned with one global
 *     rate (never per run, which would erase "more iterations") to keep a sweep affordable
 * @param oneSidedSignificance a predicate sampled true in failing runs only, whose site was never
 *     sampled in a successful run, has no baseline to be compared with: it is kept only when chance
 *     would put all of the k failing runs it was true in among the failing runs with probability at
 *     most this, C(F, k) / C(F + S, k) (default 0.05; 1 keeps them all, as deltaLDA does). A long
 *     invocation sampled whole, such as a {@code main} loop sampled in one run of twenty, is such a
 *     predicate, with all of that run's samples behind it
 */
public record DeltaLdaOptions(
    int usageTopics,
    int bugTopics,
    double alpha,
    double beta,
    long seed,
    int sweeps,
    int burnInSweeps,
    int sampleLag,
    long minFailingTokens,
    boolean dropWordsAbsentFromFailingRuns,
    long maxTokens,
    double oneSidedSignificance) {

  public static final long DEFAULT_SEED = 194582L;
  public static final int DEFAULT_SWEEPS = 200;
  public static final long DEFAULT_MAX_TOKENS = 50_000_000L;
  public static final double DEFAULT_ONE_SIDED_SIGNIFICANCE = 0.05;

  public DeltaLdaOptions {
    if (usageTopics < 1 || bugTopics < 1 || usageTopics + bugTopics > 64) {
      throw new IllegalArgumentException(
          "ΔLDA needs >= 1 usage and >= 1 bug topic, at most 64 in all (default 2 + 1), got "
              + usageTopics
              + " + "
              + bugTopics);
    }
    if (!(alpha > 0) || Double.isInfinite(alpha)) {
      throw new IllegalArgumentException(
          "ΔLDA α must be a positive number (default 0.1), was " + alpha);
    }
    if (!(beta > 0) || Double.isInfinite(beta)) {
      throw new IllegalArgumentException(
          "ΔLDA β must be a positive number (default 1), was " + beta);
    }
    if (sweeps < 1) {
      throw new IllegalArgumentException("ΔLDA needs >= 1 sweep (default 200), got " + sweeps);
    }
    if (burnInSweeps < 0 || burnInSweeps >= sweeps) {
      throw new IllegalArgumentException(
          "ΔLDA burn-in must be in [0, sweeps=" + sweeps + "), got " + burnInSweeps);
    }
    if (sampleLag < 1) {
      throw new IllegalArgumentException("ΔLDA sample lag must be >= 1 sweep, got " + sampleLag);
    }
    if (minFailingTokens < 1) {
      throw new IllegalArgumentException(
          "ΔLDA minimum failing tokens must be >= 1, got " + minFailingTokens);
    }
    if (maxTokens < 1) {
      throw new IllegalArgumentException("ΔLDA token budget must be >= 1, got " + maxTokens);
    }
    if (!(oneSidedSignificance > 0 && oneSidedSignificance <= 1)) {
      throw new IllegalArgumentException(
          "ΔLDA one-sided significance must be in (0, 1] (default 0.05, 1 keeps every predicate),"
              + " was "
              + oneSidedSignificance);
    }
  }

  public static DeltaLdaOptions defaults() {
    return new DeltaLdaOptions(
        2,
        1,
        0.1,
        1.0,
        DEFAULT_SEED,
        DEFAULT_SWEEPS,
        DEFAULT_SWEEPS / 2,
        10,
        1,
        true,
        DEFAULT_MAX_TOKENS,
        DEFAULT_ONE_SIDED_SIGNIFICANCE);
  }

  public DeltaLdaOptions withSeed(long value) {
    return new DeltaLdaOptions(
        usageTopics,
        bugTopics,
        alpha,
        beta,
        value,
        sweeps,
        burnInSweeps,
        sampleLag,
        minFailingTokens,
        dropWordsAbsentFromFailingRuns,
        maxTokens,
        oneSidedSignificance);
  }

  /** {@code value} sweeps, the first half burn-in, then about 10 samples (at most every 10th). */
  public DeltaLdaOptions withSweeps(int value) {
    return new DeltaLdaOptions(
        usageTopics,
        bugTopics,
        alpha,
        beta,
        seed,
        value,
        value / 2,
        Math.max(1, Math.min(10, (value - value / 2) / 10)),
        minFailingTokens,
        dropWordsAbsentFromFailingRuns,
        maxTokens,
        oneSidedSignificance);
  }

  /** Scores from the last sweep alone, as deltaLDA computes them. */
  public DeltaLdaOptions finalSampleOnly() {
    return new DeltaLdaOptions(
        usageTopics,
        bugTopics,
        alpha,
        beta,
        seed,
        sweeps,
        sweeps - 1,
        1,
        minFailingTokens,
        dropWordsAbsentFromFailingRuns,
        maxTokens,
        oneSidedSignificance);
  }

  public DeltaLdaOptions withTopics(int usage, int bug) {
    return new DeltaLdaOptions(
        usage,
        bug,
        alpha,
        beta,
        seed,
        sweeps,
        burnInSweeps,
        sampleLag,
        minFailingTokens,
        dropWordsAbsentFromFailingRuns,
        maxTokens,
        oneSidedSignificance);
  }

  public DeltaLdaOptions withPriors(double alphaValue, double betaValue) {
    return new DeltaLdaOptions(
        usageTopics,
        bugTopics,
        alphaValue,
        betaValue,
        seed,
        sweeps,
        burnInSweeps,
        sampleLag,
        minFailingTokens,
        dropWordsAbsentFromFailingRuns,
        maxTokens,
        oneSidedSignificance);
  }

  public DeltaLdaOptions withDropWordsAbsentFromFailingRuns(boolean value) {
    return new DeltaLdaOptions(
        usageTopics,
        bugTopics,
        alpha,
        beta,
        seed,
        sweeps,
        burnInSweeps,
        sampleLag,
        minFailingTokens,
        value,
        maxTokens,
        oneSidedSignificance);
  }

  public DeltaLdaOptions withMaxTokens(long value) {
    return new DeltaLdaOptions(
        usageTopics,
        bugTopics,
        alpha,
        beta,
        seed,
        sweeps,
        burnInSweeps,
        sampleLag,
        minFailingTokens,
        dropWordsAbsentFromFailingRuns,
        value,
        oneSidedSignificance);
  }

  public DeltaLdaOptions withOneSidedSignificance(double value) {
    return new DeltaLdaOptions(
        usageTopics,
        bugTopics,
        alpha,
        beta,
        seed,
        sweeps,
        burnInSweeps,
        sampleLag,
        minFailingTokens,
        dropWordsAbsentFromFailingRuns,
        maxTokens,
        value);
  }

  public int topicCount() {
    return usageTopics + bugTopics;
  }
}
