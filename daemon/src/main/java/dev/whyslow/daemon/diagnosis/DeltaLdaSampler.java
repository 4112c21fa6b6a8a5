package dev.whyslow.daemon.diagnosis;

import java.util.SplittableRandom;

/**
 * Collapsed Gibbs sampling for ΔLDA (Andrzejewski et al., ECML'07), count-compressed: instead of a
 * topic per token, each cell (run d, predicate w) keeps how many of its c tokens sit in each topic.
 * Tokens of one cell are exchangeable, so a sweep still updates every token exactly once with the
 * exact single-token collapsed conditional; it visits a cell's tokens in a uniformly random order,
 * drawing the next unvisited token's current topic in proportion to the unvisited counts. Memory is
 * O(cells × topics) and a sweep costs O(tokens × topics). Topics are usage topics first, then bug
 * topics; a successful run's α for bug topics is 0, so its tokens never enter them.
 *
 * <p>Re-adding a cell's tokens one by one from the sequential predictive would be cheaper but is
 * not an exact draw of their joint conditional (the predictive ignores the words still to come);
 * deltaLDA's golden test catches that.
 */
final class DeltaLdaSampler {
  private final int docs;
  private final int words;
  private final int topics;
  private final int usageTopics;
  private final boolean[] failing;
  private final int[] docStart;
  private final int[] cellWord;
  private final int[] cellCount;
  private final double[][] alpha;
  private final double beta;
  private final double betaSum;

  private final long[] wordTopic;
  private final long[] docTopic;
  private final long[] topicTotal;
  private final int[] cellTopic;

  // Scratch for one cell, reused so a sweep allocates nothing.
  private final double[] wordWeight;
  private final double[] docWeight;
  private final double[] topicInverse;
  private final double[] topicDenominator;
  private final double[] cumulative;
  private final int[] before;
  private final int[] unvisited;
  private final int[] successFirst;

  DeltaLdaSampler(
      boolean[] failing,
      int[] docStart,
      int[] cellWord,
      int[] cellCount,
      int words,
      DeltaLdaOptions options) {
    this.docs = failing.length;
    this.words = words;
    this.topics = options.topicCount();
    this.usageTopics = options.usageTopics();
    this.failing = failing;
    this.docStart = docStart;
    this.cellWord = cellWord;
    this.cellCount = cellCount;
    this.alpha = new double[2][topics];
    for (int t = 0; t < topics; t++) {
      alpha[0][t] = t < usageTopics ? options.alpha() : 0;
      alpha[1][t] = options.alpha();
    }
    this.beta = options.beta();
    this.betaSum = words * options.beta();
    wordTopic = new long[words * topics];
    docTopic = new long[docs * topics];
    topicTotal = new long[topics];
    cellTopic = new int[cellWord.length * topics];
    wordWeight = new double[topics];
    docWeight = new double[topics];
    topicInverse = new double[topics];
    topicDenominator = new double[topics];
    cumulative = new double[topics];
    before = new int[topics];
    unvisited = new int[topics];
    successFirst = new int[docs];
    int next = 0;
    for (int pass = 0; pass < 2; pass++) {
      for (int d = 0; d < docs; d++) {
        if (failing[d] == (pass == 1)) {
          successFirst[next++] = d;
        }
      }
    }
  }

  /**
   * deltaLDA's online initialisation: with every count at zero, one pass adds the tokens one by
   * one, each drawn from the conditional given the tokens added so far. Unlike deltaLDA, which
   * follows document order, successful runs go first: the usage topics start as what successful
   * runs do and the bug topic as what failing runs add. The posterior is nearly symmetric between
   * that mode and one where a spare usage topic holds the failing runs' excess, and Gibbs sampling
   * rarely leaves the mode it starts in, so the order of this pass matters; the chain's stationary
   * distribution does not depend on it.
   */
  void initialise(long seed) {
    SplittableRandom random = new SplittableRandom(seed);
    rebuildDenominators();
    for (int i = 0; i < docs; i++) {
      initialiseDoc(successFirst[i], random);
    }
  }

  private void initialiseDoc(int d, SplittableRandom random) {
    double[] a = alpha[failing[d] ? 1 : 0];
    int allowed = failing[d] ? topics : usageTopics;
    int docBase = d * topics;
    for (int cell = docStart[d]; cell < docStart[d + 1]; cell++) {
      int cellBase = cell * topics;
      int wordBase = cellWord[cell] * topics;
      loadCell(a, allowed, docBase, cellBase, wordBase);
      for (int i = cellCount[cell]; i > 0; i--) {
        int chosen = draw(random, allowed);
        cellTopic[cellBase + chosen]++;
        wordWeight[chosen] += 1;
        docWeight[chosen] += 1;
        topicDenominator[chosen] += 1;
        topicInverse[chosen] = 1.0 / topicDenominator[chosen];
      }
      storeCell(allowed, docBase, cellBase, wordBase);
    }
    rebuildDenominators();
  }

  /** One sweep: every token of every run, runs and cells in a fixed order. */
  void sweep(SplittableRandom random) {
    for (int d = 0; d < docs; d++) {
      double[] a = alpha[failing[d] ? 1 : 0];
      int allowed = failing[d] ? topics : usageTopics;
      int docBase = d * topics;
      for (int cell = docStart[d]; cell < docStart[d + 1]; cell++) {
        int cellBase = cell * topics;
        int wordBase = cellWord[cell] * topics;
        loadCell(a, allowed, docBase, cellBase, wordBase);
        System.arraycopy(before, 0, unvisited, 0, allowed);
        for (int left = cellCount[cell]; left > 0; left--) {
          int from = pickUnvisited(random, left, allowed);
          unvisited[from]--;
          // Take the token out of every count...
          double savedInverse = topicInverse[from];
          wordWeight[from] -= 1;
          docWeight[from] -= 1;
          topicDenominator[from] -= 1;
          topicInverse[from] = 1.0 / topicDenominator[from];
          // ...and put it back where the conditional given all the others says.
          int chosen = draw(random, allowed);
          wordWeight[chosen] += 1;
          docWeight[chosen] += 1;
          topicDenominator[chosen] += 1;
          if (chosen == from) {
            topicInverse[from] = savedInverse;
          } else {
            topicInverse[chosen] = 1.0 / topicDenominator[chosen];
            cellTopic[cellBase + from]--;
            cellTopic[cellBase + chosen]++;
          }
        }
        storeCell(allowed, docBase, cellBase, wordBase);
      }
      // Rebuild from exact integers once per run, so no rounding creeps into the denominators.
      rebuildDenominators();
    }
  }

  private void loadCell(double[] a, int allowed, int docBase, int cellBase, int wordBase) {
    for (int t = 0; t < allowed; t++) {
      before[t] = cellTopic[cellBase + t];
      wordWeight[t] = wordTopic[wordBase + t] + beta;
      docWeight[t] = docTopic[docBase + t] + a[t];
    }
  }

  private void storeCell(int allowed, int docBase, int cellBase, int wordBase) {
    for (int t = 0; t < allowed; t++) {
      long delta = cellTopic[cellBase + t] - before[t];
      wordTopic[wordBase + t] += delta;
      docTopic[docBase + t] += delta;
      topicTotal[t] += delta;
    }
  }

  private void rebuildDenominators() {
    for (int t = 0; t < topics; t++) {
      topicDenominator[t] = topicTotal[t] + betaSum;
      topicInverse[t] = 1.0 / topicDenominator[t];
    }
  }

  /** The current topic of a uniformly chosen unvisited token of the cell. */
  private int pickUnvisited(SplittableRandom random, int left, int allowed) {
    int from = 0;
    while (unvisited[from] == 0) {
      from++;
    }
    if (unvisited[from] == left) {
      return from; // all the rest sit in one topic: no draw needed (the common case once mixed)
    }
    int r = random.nextInt(left);
    from = 0;
    while (from < allowed - 1 && r >= unvisited[from]) {
      r -= unvisited[from];
      from++;
    }
    return from;
  }

  /** A topic drawn from p(t) ∝ (n_wt + β) / (n_t + Wβ) · (n_dt + α_t) over the allowed topics. */
  private int draw(SplittableRandom random, int allowed) {
    double sum = 0;
    for (int t = 0; t < allowed; t++) {
      sum += wordWeight[t] * docWeight[t] * topicInverse[t];
      cumulative[t] = sum;
    }
    double u = random.nextDouble() * sum;
    // A topic of zero probability is never chosen: its cumulative value equals the one before
    // it, which is <= u. If rounding puts u at the very end, the last allowed topic (positive:
    // α and β are > 0 there) takes it.
    int chosen = 0;
    while (chosen < allowed - 1 && cumulative[chosen] <= u) {
      chosen++;
    }
    return chosen;
  }

  int topics() {
    return topics;
  }

  int usageTopics() {
    return usageTopics;
  }

  /** φ[t][w] = (n_wt + β) / (n_t + Wβ), for the current sample, into {@code phi[t * W + w]}. */
  void addPhi(double[] phi) {
    for (int t = 0; t < topics; t++) {
      double inverse = 1.0 / (topicTotal[t] + betaSum);
      for (int w = 0; w < words; w++) {
        phi[t * words + w] += (wordTopic[w * topics + t] + beta) * inverse;
      }
    }
  }

  /** θ[d][t] = (n_dt + α_t) / (n_d + Σα), for the current sample, into {@code theta[d * T + t]}. */
  void addTheta(double[] theta) {
    for (int d = 0; d < docs; d++) {
      double[] a = alpha[failing[d] ? 1 : 0];
      double total = 0;
      for (int t = 0; t < topics; t++) {
        total += docTopic[d * topics + t] + a[t];
      }
      for (int t = 0; t < topics; t++) {
        theta[d * topics + t] += (docTopic[d * topics + t] + a[t]) / total;
      }
    }
  }

  /**
   * P(t | w) for every bug topic t, with π_t ∝ Σ_d θ[d][t] as in cbiexp's {@code getprzAndprzw},
   * for the current sample, into {@code out[b * W + w]}; and n_wt of each bug topic into {@code
   * tokens}.
   */
  void addBugGivenWord(double[] out, double[] tokens) {
    double[] theta = new double[docs * topics];
    addTheta(theta);
    double[] pi = new double[topics];
    double piTotal = 0;
    for (int d = 0; d < docs; d++) {
      for (int t = 0; t < topics; t++) {
        pi[t] += theta[d * topics + t];
      }
    }
    for (int t = 0; t < topics; t++) {
      piTotal += pi[t];
    }
    double[] weight = new double[topics];
    for (int t = 0; t < topics; t++) {
      weight[t] = pi[t] / piTotal / (topicTotal[t] + betaSum);
    }
    int bugTopics = topics - usageTopics;
    for (int w = 0; w < words; w++) {
      double denominator = 0;
      for (int t = 0; t < topics; t++) {
        denominator += (wordTopic[w * topics + t] + beta) * weight[t];
      }
      for (int b = 0; b < bugTopics; b++) {
        int t = usageTopics + b;
        out[b * words + w] += (wordTopic[w * topics + t] + beta) * weight[t] / denominator;
        tokens[b * words + w] += wordTopic[w * topics + t];
      }
    }
  }

  /** Tokens of run {@code d} in topic {@code t} in the current sample. */
  long docTopicCount(int d, int t) {
    return docTopic[d * topics + t];
  }
}
