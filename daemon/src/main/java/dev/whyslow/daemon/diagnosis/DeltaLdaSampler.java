package dev.whyslow.daemon.diagnosis;

import java.util.SplittableRandom;

/**
 * Collapsed Gibbs sampling for ΔLDA (Andrzejewski et al., ECML'07), count-compressed: instead of a
 * topic per token, each cell (run d, predicate w) keeps how many of its c tokens sit in each topic.
 * Tokens of one cell are exchangeable, so a sweep still updates every token exactly once with the
 * exact single-token collapsed conditional; it visits a cell's tokens in a uniformly random order,
 * drawing the next unvisited token's current topic in proportion to the unvisited counts. (Visiting
 * them grouped by current topic would save that draw, but an order that depends on the state does
 * not leave the posterior invariant.) Memory is O(cells × topics) and a sweep costs O(tokens ×
 * topics). Topics are usage topics first, then bug topics; a successful run's α for bug topics is
 * 0, so its tokens never enter them.
 *
 * <p>Re-adding a cell's tokens one by one from the sequential predictive would be cheaper but is
 * not an exact draw of their joint conditional (the predictive ignores the words still to come);
 * deltaLDA's golden test catches that.
 *
 * <p>The hot loop divides nothing: p(t) ∝ (n_wt + β)(n_dt + α_t) / (n_t + Wβ) is multiplied through
 * by the product of the allowed topics' denominators. The default 2 + 1 topics have a scalar fast
 * path that performs exactly the same floating-point operations as the generic one.
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
  private final int[] successFirst;

  private final long[] wordTopic;
  private final long[] docTopic;
  private final long[] topicTotal;
  private final int[] cellTopic;

  // Scratch for one cell, reused so a sweep allocates nothing.
  private final double[] wordWeight;
  private final double[] docWeight;
  private final double[] topicDenominator;
  private final double[] cumulative;
  private final int[] before;
  private final int[] unvisited;

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
    successFirst = new int[docs];
    int next = 0;
    for (int pass = 0; pass < 2; pass++) {
      for (int d = 0; d < docs; d++) {
        if (failing[d] == (pass == 1)) {
          successFirst[next++] = d;
        }
      }
    }
    wordTopic = new long[words * topics];
    docTopic = new long[docs * topics];
    topicTotal = new long[topics];
    cellTopic = new int[cellWord.length * topics];
    wordWeight = new double[topics];
    docWeight = new double[topics];
    topicDenominator = new double[topics];
    cumulative = new double[topics];
    before = new int[topics];
    unvisited = new int[topics];
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
      int d = successFirst[i];
      double[] a = alpha[failing[d] ? 1 : 0];
      int allowed = failing[d] ? topics : usageTopics;
      int docBase = d * topics;
      for (int cell = docStart[d]; cell < docStart[d + 1]; cell++) {
        int cellBase = cell * topics;
        int wordBase = cellWord[cell] * topics;
        loadCell(a, allowed, docBase, cellBase, wordBase);
        for (int k = cellCount[cell]; k > 0; k--) {
          int chosen = draw(random, allowed);
          cellTopic[cellBase + chosen]++;
          wordWeight[chosen] += 1;
          docWeight[chosen] += 1;
          topicDenominator[chosen] += 1;
        }
        storeCell(allowed, docBase, cellBase, wordBase);
      }
      rebuildDenominators();
    }
  }

  /** One sweep: every token of every run, runs and cells in a fixed order. */
  void sweep(SplittableRandom random) {
    if (topics == 3 && usageTopics == 2) {
      sweepTwoUsageOneBug(random);
    } else {
      sweepGeneric(random);
    }
  }

  /** The sweep for any number of topics; {@link #sweep} prefers the fast path when it applies. */
  void sweepGeneric(SplittableRandom random) {
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
          wordWeight[from] -= 1;
          docWeight[from] -= 1;
          topicDenominator[from] -= 1;
          // ...and put it back where the conditional given all the others says.
          int chosen = draw(random, allowed);
          wordWeight[chosen] += 1;
          docWeight[chosen] += 1;
          topicDenominator[chosen] += 1;
          cellTopic[cellBase + from]--;
          cellTopic[cellBase + chosen]++;
        }
        storeCell(allowed, docBase, cellBase, wordBase);
      }
      // Rebuild from exact integers once per run, so no rounding creeps into the denominators.
      rebuildDenominators();
    }
  }

  /**
   * {@link #sweepGeneric} for 2 usage topics and 1 bug topic, with every count of the current cell
   * in a local variable. Same operations in the same order, so the same chain bit for bit.
   */
  private void sweepTwoUsageOneBug(SplittableRandom random) {
    final long[] nwt = wordTopic;
    final long[] ndt = docTopic;
    final int[] m = cellTopic;
    double dn0 = topicTotal[0] + betaSum;
    double dn1 = topicTotal[1] + betaSum;
    double dn2 = topicTotal[2] + betaSum;
    for (int d = 0; d < docs; d++) {
      boolean fails = failing[d];
      double[] a = alpha[fails ? 1 : 0];
      int db = d * 3;
      for (int cell = docStart[d]; cell < docStart[d + 1]; cell++) {
        int cb = cell * 3;
        int wb = cellWord[cell] * 3;
        int m0 = m[cb];
        int m1 = m[cb + 1];
        int m2 = m[cb + 2];
        int u0 = m0;
        int u1 = m1;
        int u2 = m2;
        double w0 = nwt[wb] + beta;
        double w1 = nwt[wb + 1] + beta;
        double w2 = nwt[wb + 2] + beta;
        double d0 = ndt[db] + a[0];
        double d1 = ndt[db + 1] + a[1];
        double d2 = ndt[db + 2] + a[2];
        for (int left = cellCount[cell]; left > 0; left--) {
          int from;
          if (u0 == left) {
            from = 0;
          } else if (u1 == left) {
            from = 1;
          } else if (u2 == left) {
            from = 2;
          } else {
            int r = uniform(random, left);
            from = r < u0 ? 0 : r < u0 + u1 ? 1 : 2;
          }
          if (from == 0) {
            u0--;
            m0--;
            w0 -= 1;
            d0 -= 1;
            dn0 -= 1;
          } else if (from == 1) {
            u1--;
            m1--;
            w1 -= 1;
            d1 -= 1;
            dn1 -= 1;
          } else {
            u2--;
            m2--;
            w2 -= 1;
            d2 -= 1;
            dn2 -= 1;
          }
          int chosen;
          if (fails) {
            double c0 = (w0 * d0) * (dn1 * dn2);
            double c1 = c0 + (w1 * d1) * (dn0 * dn2);
            double c2 = c1 + (w2 * d2) * (dn0 * dn1);
            double u = random.nextDouble() * c2;
            chosen = c0 > u ? 0 : c1 > u ? 1 : 2;
          } else {
            double c0 = (w0 * d0) * dn1;
            double c1 = c0 + (w1 * d1) * dn0;
            double u = random.nextDouble() * c1;
            chosen = c0 > u ? 0 : 1;
          }
          if (chosen == 0) {
            m0++;
            w0 += 1;
            d0 += 1;
            dn0 += 1;
          } else if (chosen == 1) {
            m1++;
            w1 += 1;
            d1 += 1;
            dn1 += 1;
          } else {
            m2++;
            w2 += 1;
            d2 += 1;
            dn2 += 1;
          }
        }
        long delta0 = m0 - m[cb];
        long delta1 = m1 - m[cb + 1];
        long delta2 = m2 - m[cb + 2];
        m[cb] = m0;
        m[cb + 1] = m1;
        m[cb + 2] = m2;
        nwt[wb] += delta0;
        nwt[wb + 1] += delta1;
        nwt[wb + 2] += delta2;
        ndt[db] += delta0;
        ndt[db + 1] += delta1;
        ndt[db + 2] += delta2;
        topicTotal[0] += delta0;
        topicTotal[1] += delta1;
        topicTotal[2] += delta2;
      }
      dn0 = topicTotal[0] + betaSum;
      dn1 = topicTotal[1] + betaSum;
      dn2 = topicTotal[2] + betaSum;
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
    }
  }

  /** The current topic of a uniformly chosen unvisited token of the cell. */
  private int pickUnvisited(SplittableRandom random, int left, int allowed) {
    for (int t = 0; t < allowed; t++) {
      if (unvisited[t] == left) {
        return t; // all the rest sit in one topic: no draw needed (the common case once mixed)
      }
    }
    int r = uniform(random, left);
    int from = 0;
    while (from < allowed - 1 && r >= unvisited[from]) {
      r -= unvisited[from];
      from++;
    }
    return from;
  }

  /**
   * A uniform int in [0, bound), exactly (Lemire's multiply-shift with rejection). {@code
   * SplittableRandom.nextInt(bound)} divides on every call, which costs more than the rest of a
   * token's update.
   */
  static int uniform(SplittableRandom random, int bound) {
    long product = (random.nextInt() & 0xffffffffL) * bound;
    long low = product & 0xffffffffL;
    if (low < bound) {
      long threshold = (0x1_0000_0000L - bound) % bound;
      while (low < threshold) {
        product = (random.nextInt() & 0xffffffffL) * bound;
        low = product & 0xffffffffL;
      }
    }
    return (int) (product >>> 32);
  }

  /**
   * A topic drawn from p(t) ∝ (n_wt + β)(n_dt + α_t) / (n_t + Wβ) over the allowed topics,
   * multiplied through by the product of their denominators so that nothing is divided.
   */
  private int draw(SplittableRandom random, int allowed) {
    double sum = 0;
    for (int t = 0; t < allowed; t++) {
      double others = 1;
      for (int s = 0; s < allowed; s++) {
        if (s != t) {
          others *= topicDenominator[s];
        }
      }
      sum += (wordWeight[t] * docWeight[t]) * others;
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
