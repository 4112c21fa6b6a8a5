package dev.whyslow.daemon.diagnosis;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class DeltaLdaSamplerTest {
  private static final int DOCS = 40;
  private static final int WORDS = 60;

  private static DeltaLdaSampler sampler(DeltaLdaOptions options) {
    SplittableRandom random = new SplittableRandom(5);
    boolean[] failing = new boolean[DOCS];
    int[] docStart = new int[DOCS + 1];
    GrowableInts words = new GrowableInts(16);
    GrowableInts counts = new GrowableInts(16);
    for (int d = 0; d < DOCS; d++) {
      failing[d] = d % 3 == 0;
      for (int w = 0; w < WORDS; w++) {
        if (random.nextDouble() < 0.3) {
          words.add(w);
          counts.add(1 + random.nextInt(w == 7 && failing[d] ? 60 : 12));
        }
      }
      docStart[d + 1] = words.size();
    }
    return new DeltaLdaSampler(
        failing, docStart, words.toArray(), counts.toArray(), WORDS, options);
  }

  @Test
  void theTwoUsageOneBugFastPathIsTheGenericChainBitForBit() {
    DeltaLdaOptions options = DeltaLdaOptions.defaults();
    DeltaLdaSampler fast = sampler(options);
    DeltaLdaSampler generic = sampler(options);
    fast.initialise(42);
    generic.initialise(42);

    for (int s = 1; s <= 25; s++) {
      fast.sweep(new SplittableRandom(42 + s));
      generic.sweepGeneric(new SplittableRandom(42 + s));
    }

    double[] fastPhi = new double[3 * WORDS];
    double[] genericPhi = new double[3 * WORDS];
    fast.addPhi(fastPhi);
    generic.addPhi(genericPhi);
    assertThat(fastPhi).containsExactly(genericPhi);
    for (int d = 0; d < DOCS; d++) {
      for (int t = 0; t < 3; t++) {
        assertThat(fast.docTopicCount(d, t)).isEqualTo(generic.docTopicCount(d, t));
      }
    }
  }

  @Test
  void uniformIntsCoverTheRangeEvenly() {
    SplittableRandom random = new SplittableRandom(3);
    int[] hits = new int[7];
    for (int i = 0; i < 70_000; i++) {
      hits[DeltaLdaSampler.uniform(random, 7)]++;
    }

    for (int hit : hits) {
      assertThat(hit).isBetween(9_500, 10_500);
    }
    assertThat(DeltaLdaSampler.uniform(random, 1)).isZero();
  }

  @Test
  void successfulRunsNeverEnterTheBugTopicsWhateverTheTopicCount() {
    DeltaLdaSampler sampler = sampler(DeltaLdaOptions.defaults().withTopics(3, 2));
    sampler.initialise(1);

    for (int s = 1; s <= 10; s++) {
      sampler.sweep(new SplittableRandom(s));
    }

    long bugTokensOfFailingRuns = 0;
    for (int d = 0; d < DOCS; d++) {
      for (int t = 3; t < 5; t++) {
        if (d % 3 == 0) {
          bugTokensOfFailingRuns += sampler.docTopicCount(d, t);
        } else {
          assertThat(sampler.docTopicCount(d, t)).as("run %d topic %d", d, t).isZero();
        }
      }
    }
    assertThat(bugTokensOfFailingRuns).isPositive();
  }
}
