package dev.whyslow.daemon.diagnosis;

/**
 * What a ΔLDA fit estimated, averaged over the samples read: φ (topic → predicate), θ (run → topic)
 * and P(bug topic | predicate). Words are indexed 0..{@link #wordCount()}−1 and map to table
 * predicates through {@link #predicate(int)}; runs keep their table index.
 */
public final class DeltaLdaFit {
  private final int[] words;
  private final int topics;
  private final int usageTopics;
  private final int docs;
  private final boolean[] failingRuns;
  private final double[] phi;
  private final double[] theta;
  private final double[] bugGivenWord;
  private final double[] bugTokens;
  private final long[] failingTokens;
  private final long[] successTokens;
  private final int samples;
  private final long tokens;
  private final double thinningRate;
  private final int[] oneSidedLeftOut;

  DeltaLdaFit(
      int[] words,
      int topics,
      int usageTopics,
      boolean[] failingRuns,
      double[] phi,
      double[] theta,
      double[] bugGivenWord,
      double[] bugTokens,
      long[] failingTokens,
      long[] successTokens,
      int samples,
      long tokens,
      double thinningRate,
      int[] oneSidedLeftOut) {
    this.words = words;
    this.topics = topics;
    this.usageTopics = usageTopics;
    this.docs = failingRuns.length;
    this.failingRuns = failingRuns;
    this.phi = phi;
    this.theta = theta;
    this.bugGivenWord = bugGivenWord;
    this.bugTokens = bugTokens;
    this.failingTokens = failingTokens;
    this.successTokens = successTokens;
    this.samples = samples;
    this.tokens = tokens;
    this.thinningRate = thinningRate;
    this.oneSidedLeftOut = oneSidedLeftOut;
  }

  public int wordCount() {
    return words.length;
  }

  /** The table predicate id of word {@code w}. */
  public int predicate(int w) {
    return words[w];
  }

  public int topicCount() {
    return topics;
  }

  public int usageTopicCount() {
    return usageTopics;
  }

  public int runCount() {
    return docs;
  }

  /** P(w | t). */
  public double phi(int topic, int w) {
    return phi[topic * words.length + w];
  }

  /** P(t | run). */
  public double theta(int run, int topic) {
    return theta[run * topics + topic];
  }

  /** P(bug topic {@code bug} | w), {@code bug} counted from 0 among the bug topics. */
  public double bugGivenWord(int bug, int w) {
    return bugGivenWord[bug * words.length + w];
  }

  /** Mean number of w's tokens in bug topic {@code bug}. */
  public double bugTokens(int bug, int w) {
    return bugTokens[bug * words.length + w];
  }

  /** w's tokens in failing runs, after thinning. */
  public long failingTokens(int w) {
    return failingTokens[w];
  }

  /** w's tokens in successful runs, after thinning. */
  public long successTokens(int w) {
    return successTokens[w];
  }

  /**
   * The share of usage topic {@code topic}'s weight (θ summed over runs) that failing runs carry. A
   * usage topic used mostly by failing runs may hold part of the failure's signal.
   */
  public double failingShare(int topic) {
    double failing = 0;
    double all = 0;
    for (int d = 0; d < docs; d++) {
      double weight = theta[d * topics + topic];
      all += weight;
      if (failingRuns[d]) {
        failing += weight;
      }
    }
    return all == 0 ? 0 : failing / all;
  }

  /** How many sweeps' states the estimates average. */
  public int samples() {
    return samples;
  }

  /** Tokens the sampler swept, after thinning. */
  public long tokens() {
    return tokens;
  }

  /** The share of tokens kept: 1 unless the vocabulary held more than the token budget. */
  public double thinningRate() {
    return thinningRate;
  }

  /**
   * Table ids of the predicates true in failing runs only, in too few of them for their absence
   * from successful runs to mean anything ({@link DeltaLdaOptions#oneSidedSignificance}), left out
   * of the vocabulary.
   */
  public int[] oneSidedLeftOut() {
    return oneSidedLeftOut.clone();
  }
}
