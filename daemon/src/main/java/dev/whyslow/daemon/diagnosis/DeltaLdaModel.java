package dev.whyslow.daemon.diagnosis;

import dev.whyslow.protocol.SiteKeys;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;
import java.util.concurrent.CancellationException;
import java.util.stream.Collectors;

/**
 * ΔLDA (Andrzejewski et al., ECML'07) as Song and Lu used it for performance bugs: runs are
 * documents, predicates words, and each sampled-true evaluation a token, so a loop branch that
 * iterates more in slow runs brings more tokens there. Usage topics are shared by all runs; bug
 * topics only failing runs may use, so they collect what failing runs do in excess. Predicates are
 * ranked by P(w | bug), with P(bug | w) beside it. Loop branches are the default vocabulary.
 *
 * <p>A sweep costs O(tokens × topics) (about 9 ns per token on one core with the default topics);
 * windows with more than {@code maxTokens} tokens are thinned with one global rate. A fit runs on
 * the calling thread and stops between sweeps when that thread is interrupted.
 */
public final class DeltaLdaModel implements DiagnosisModel {
  public static final String NAME = "delta-lda";

  /** A usage topic whose weight comes this much from failing runs is pointed out in the notes. */
  static final double FAILING_USAGE_SHARE = 0.8;

  /** How many of the predicates left out for want of a baseline a note names, largest first. */
  static final int NAMED_LEFT_OUT = 3;

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public PredicateFilter defaultFilter() {
    return PredicateFilter.loopBranches();
  }

  @Override
  public Ranking rank(PredicateTable table, DiagnosisOptions options) {
    List<String> reasons = RunSupport.check(table, options, "ΔLDA");
    if (!reasons.isEmpty()) {
      return Ranking.insufficient(NAME, reasons);
    }
    DeltaLdaOptions lda = options.deltaLda();
    DeltaLdaFit fit = fit(table, lda);
    if (fit.wordCount() == 0 && fit.oneSidedLeftOut().length > 0) {
      return Ranking.insufficient(NAME, List.of(oneSidedNote(table, fit, lda)));
    }
    if (fit.wordCount() == 0) {
      return Ranking.insufficient(
          NAME,
          List.of(
              "no predicate (filter: "
                  + table.filter().describe()
                  + ") was sampled true in any of the "
                  + table.failingRunCount()
                  + " failing runs, so ΔLDA has nothing to attribute to the bug topic: widen the"
                  + " filter (e.g. all) or collect more failing runs"));
    }
    List<RankedPredicate> ranked = rankWords(table, fit, lda);
    if (ranked.isEmpty()) {
      List<String> emptyBugTopic = new ArrayList<>();
      emptyBugTopic.add(
          "the bug topic stayed empty: the "
              + table.failingRunCount()
              + " failing runs use the "
              + fit.wordCount()
              + " predicates the way successful runs do, so ΔLDA finds no excess to explain;"
              + " check the labels, or try cbi for branches taken only in slow runs");
      if (fit.oneSidedLeftOut().length > 0) {
        emptyBugTopic.add(oneSidedNote(table, fit, lda));
      }
      return Ranking.insufficient(NAME, emptyBugTopic);
    }
    List<String> notes = new ArrayList<>();
    if (fit.oneSidedLeftOut().length > 0) {
      notes.add(oneSidedNote(table, fit, lda));
    }
    if (fit.thinningRate() < 1) {
      notes.add(
          String.format(
              Locale.ROOT,
              "tokens were thinned to %.3g of their number (one global rate) to stay within"
                  + " maxTokens=%d; rankings of rare predicates are noisier",
              fit.thinningRate(),
              lda.maxTokens()));
    }
    double failingRunShare = (double) table.failingRunCount() / table.runCount();
    for (int t = 0; t < fit.usageTopicCount(); t++) {
      double share = fit.failingShare(t);
      if (share >= FAILING_USAGE_SHARE && share > failingRunShare) {
        notes.add(
            String.format(
                Locale.ROOT,
                "usage topic %d is used mostly by failing runs (%.0f%% of its weight): it may hold"
                    + " part of the failure's signal instead of the bug topic; compare with the cbi"
                    + " ranking or fewer usage topics",
                t,
                100 * share));
      }
    }
    return new Ranking(NAME, ranked, List.of(), notes);
  }

  private static String oneSidedNote(PredicateTable table, DeltaLdaFit fit, DeltaLdaOptions lda) {
    int[] leftOut = fit.oneSidedLeftOut();
    int n = leftOut.length;
    String named =
        Arrays.stream(leftOut)
            .boxed()
            .sorted(Comparator.comparingLong((Integer p) -> -table.failingTokens(p)))
            .limit(NAMED_LEFT_OUT)
            .map(p -> name(table, p))
            .collect(Collectors.joining("; "));
    return String.format(
        Locale.ROOT,
        "%d predicate%s true in failing runs only, in too few of the %d for chance to be ruled"
            + " out (never sampled at all in a successful run), left out: %s%s. A long invocation,"
            + " such as a main loop, is sampled whole or not at all; more runs per side bring such"
            + " predicates back, and the diagnosis parameter oneSided=1 keeps them (now %s)",
        n,
        n == 1 ? "" : "s",
        table.failingRunCount(),
        named,
        n > NAMED_LEFT_OUT ? "; …" : "",
        lda.oneSidedSignificance());
  }

  private static String name(PredicateTable table, int p) {
    int index = table.predicateIndex(p);
    return table
        .site(p)
        .map(s -> s.location() + " \"" + s.kind().predicateName(index).trim() + "\"")
        .orElse("site " + SiteKeys.format(table.siteKey(p)) + " predicate " + index);
  }

  private static List<RankedPredicate> rankWords(
      PredicateTable table, DeltaLdaFit fit, DeltaLdaOptions lda) {
    List<RankedPredicate> candidates = new ArrayList<>();
    int usage = fit.usageTopicCount();
    int bugs = fit.topicCount() - usage;
    for (int w = 0; w < fit.wordCount(); w++) {
      int best = 0;
      for (int b = 1; b < bugs; b++) {
        if (fit.phi(usage + b, w) > fit.phi(usage + best, w)) {
          best = b;
        }
      }
      if (fit.bugTokens(best, w) <= 0 || fit.failingTokens(w) < lda.minFailingTokens()) {
        continue;
      }
      int p = fit.predicate(w);
      DeltaLdaScores scores =
          new DeltaLdaScores(
              usage + best,
              fit.phi(usage + best, w),
              fit.bugGivenWord(best, w),
              fit.bugTokens(best, w),
              fit.failingTokens(w),
              fit.successTokens(w));
      candidates.add(
          new RankedPredicate(
              0, p, table.siteKey(p), table.predicateIndex(p), table.counts(p), scores));
    }
    Comparator<RankedPredicate> order =
        Comparator.comparingDouble((RankedPredicate r) -> lda(r).wordGivenBug())
            .reversed()
            .thenComparing(
                Comparator.comparingDouble((RankedPredicate r) -> lda(r).bugGivenWord()).reversed())
            .thenComparingInt(RankedPredicate::predicateId);
    candidates.sort(order);
    List<RankedPredicate> ranked = new ArrayList<>(candidates.size());
    for (RankedPredicate r : candidates) {
      ranked.add(
          new RankedPredicate(
              ranked.size() + 1,
              r.predicateId(),
              r.siteKey(),
              r.predicateIndex(),
              r.counts(),
              r.scores()));
    }
    return ranked;
  }

  private static DeltaLdaScores lda(RankedPredicate r) {
    return (DeltaLdaScores) r.scores();
  }

  /**
   * Fits ΔLDA to the table's predicates (all of them: the filter was applied when the table was
   * built). Stops between sweeps with a {@link CancellationException} if the thread is interrupted.
   */
  public DeltaLdaFit fit(PredicateTable table, DeltaLdaOptions lda) {
    int predicates = table.predicateCount();
    int[] wordOf = new int[predicates];
    Arrays.fill(wordOf, -1);
    int[] words = new int[predicates];
    int wordCount = 0;
    GrowableInts oneSidedLeftOut = new GrowableInts(16);
    long total = 0;
    for (int p = 0; p < predicates; p++) {
      long tokens = table.failingTokens(p) + table.successTokens(p);
      if (tokens == 0 || (lda.dropWordsAbsentFromFailingRuns() && table.failingTokens(p) == 0)) {
        continue;
      }
      if (lacksBaseline(table.counts(p), lda.oneSidedSignificance())) {
        oneSidedLeftOut.add(p);
        continue;
      }
      wordOf[p] = wordCount;
      words[wordCount++] = p;
      total += tokens;
    }
    words = Arrays.copyOf(words, wordCount);
    double rate = total > lda.maxTokens() ? (double) lda.maxTokens() / total : 1.0;

    int runs = table.runCount();
    boolean[] failing = new boolean[runs];
    int[] docStart = new int[runs + 1];
    GrowableInts cellWord = new GrowableInts(1 << 12);
    GrowableInts cellCount = new GrowableInts(1 << 12);
    long[] failingTokens = new long[wordCount];
    long[] successTokens = new long[wordCount];
    long swept = 0;
    SplittableRandom thinning = new SplittableRandom(lda.seed() ^ 0x7468696e6e696e67L);
    int[] trueStart = table.trueStart();
    int[] truePredicate = table.truePredicate();
    int[] trueCount = table.trueCount();
    for (int r = 0; r < runs; r++) {
      failing[r] = table.isFailing(r);
      for (int i = trueStart[r]; i < trueStart[r + 1]; i++) {
        int w = wordOf[truePredicate[i]];
        if (w < 0) {
          continue;
        }
        int count = rate < 1 ? thin(trueCount[i], rate, thinning) : trueCount[i];
        if (count == 0) {
          continue;
        }
        cellWord.add(w);
        cellCount.add(count);
        (failing[r] ? failingTokens : successTokens)[w] += count;
        swept += count;
      }
      docStart[r + 1] = cellWord.size();
    }

    int topics = lda.topicCount();
    int bugs = lda.bugTopics();
    double[] phi = new double[topics * wordCount];
    double[] theta = new double[runs * topics];
    double[] bugGivenWord = new double[bugs * wordCount];
    double[] bugTokens = new double[bugs * wordCount];
    int samples = 0;
    if (wordCount > 0) {
      DeltaLdaSampler sampler =
          new DeltaLdaSampler(
              failing, docStart, cellWord.toArray(), cellCount.toArray(), wordCount, lda);
      sampler.initialise(lda.seed());
      for (int s = 1; s <= lda.sweeps(); s++) {
        if (Thread.currentThread().isInterrupted()) {
          throw new CancellationException("ΔLDA interrupted after " + (s - 1) + " sweeps");
        }
        // deltaLDA reseeds every sweep (seed + sweep) so that any sweep can be replayed.
        sampler.sweep(new SplittableRandom(lda.seed() + s));
        int sinceBurnIn = s - lda.burnInSweeps();
        if (sinceBurnIn > 0 && (sinceBurnIn % lda.sampleLag() == 0 || s == lda.sweeps())) {
          sampler.addPhi(phi);
          sampler.addTheta(theta);
          sampler.addBugGivenWord(bugGivenWord, bugTokens);
          samples++;
        }
      }
      scale(phi, samples);
      scale(theta, samples);
      scale(bugGivenWord, samples);
      scale(bugTokens, samples);
    }
    return new DeltaLdaFit(
        words,
        topics,
        lda.usageTopics(),
        failing,
        phi,
        theta,
        bugGivenWord,
        bugTokens,
        failingTokens,
        successTokens,
        samples,
        swept,
        rate,
        oneSidedLeftOut.toArray());
  }

  /**
   * Whether a predicate true in failing runs only, its site never sampled in a successful run, is
   * too rare to say anything: ΔLDA would give all its tokens to the bug topic, since no usage topic
   * can explain a word successful runs lack, even when it is missing there by chance (a method
   * invoked once per run, sampled whole in one run of twenty). Fisher's exact test on the runs: the
   * chance that all k runs it was true in are failing ones, were the labels unrelated to it.
   */
  static boolean lacksBaseline(PredicateCounts counts, double significance) {
    if (significance >= 1 || counts.successObserved() > 0 || counts.failingTrue() == 0) {
      return false;
    }
    int failing = counts.numFailing();
    int all = failing + counts.numSuccess();
    double chance = 1;
    for (int i = 0; i < counts.failingTrue() && chance > significance; i++) {
      chance *= (double) (failing - i) / (all - i);
    }
    return chance > significance;
  }

  /**
   * Keeps count·rate tokens in expectation: the integer part, plus one with the fraction's odds.
   */
  private static int thin(int count, double rate, SplittableRandom random) {
    double kept = count * rate;
    int whole = (int) kept;
    return whole + (random.nextDouble() < kept - whole ? 1 : 0);
  }

  private static void scale(double[] values, int samples) {
    for (int i = 0; i < values.length; i++) {
      values[i] /= samples;
    }
  }
}
