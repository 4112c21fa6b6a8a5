package dev.whyslow.examples.eval;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import dev.whyslow.protocol.Label;
import dev.whyslow.protocol.Run;
import dev.whyslow.protocol.RunKind;
import dev.whyslow.protocol.SiteCounts;
import dev.whyslow.protocol.SiteKind;
import dev.whyslow.storage.RunOrigin;
import dev.whyslow.storage.StoredRun;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class SamplingEmulatorTest {
  static final long BRANCH = 1, NUMERIC = 2, REFERENCE = 3, RARE = 4;
  static final Map<Long, SiteKind> KINDS =
      Map.of(
          BRANCH, SiteKind.LOOP_BRANCH,
          NUMERIC, SiteKind.RETURN_NUMERIC,
          REFERENCE, SiteKind.RETURN_REFERENCE,
          RARE, SiteKind.BRANCH);

  static StoredRun runAtRate(double rate, SiteCounts... sites) {
    Run run = new Run(1, RunKind.PROCESS, 1_000, 5_000, Label.FAILURE, "", rate, List.of(sites));
    return new StoredRun(42, new RunOrigin("svc", "bad-1", "eval"), run);
  }

  @Test
  void binomialDrawsHaveTheBinomialMeanAndVariance() {
    SplittableRandom random = new SplittableRandom(7);
    long n = 1_000_000;
    double p = 1e-4;
    int draws = 2_000;
    double sum = 0;
    double sumOfSquares = 0;
    for (int i = 0; i < draws; i++) {
      long x = SamplingEmulator.binomial(n, p, random);
      sum += x;
      sumOfSquares += (double) x * x;
    }
    double mean = sum / draws;
    double variance = sumOfSquares / draws - mean * mean;
    // n·p = 100, variance n·p·(1-p) ≈ 100; the sample mean's sd is sqrt(100 / 2000) ≈ 0.22.
    assertThat(mean).isCloseTo(100, within(5 * 0.224));
    assertThat(variance).isCloseTo(100, within(15.0));
  }

  @Test
  void binomialEdgeCasesNeedNoRandomness() {
    SplittableRandom random = new SplittableRandom(1);
    assertThat(SamplingEmulator.binomial(12, 1.0, random)).isEqualTo(12);
    assertThat(SamplingEmulator.binomial(0, 0.5, random)).isZero();
    assertThat(SamplingEmulator.binomial(12, 0, random)).isZero();
  }

  @Test
  void thinningAtRateOneKeepsEveryCount() {
    StoredRun run =
        runAtRate(
            1.0,
            new SiteCounts(BRANCH, 101, new long[] {1, 100}),
            new SiteCounts(NUMERIC, 34, new long[] {4, 4, 30, 30, 0, 34}));
    StoredRun same = SamplingEmulator.thin(run, 1.0, KINDS, new SplittableRandom(1), 9);
    assertThat(same.run().sites()).isEqualTo(run.run().sites());
    assertThat(same.runId()).isEqualTo(9);
  }

  @Test
  void thinnedRunsKeepTheRunAndSaySampledAtTheNewRate() {
    StoredRun run = runAtRate(1.0, new SiteCounts(BRANCH, 2_000_001, new long[] {1, 2_000_000}));
    StoredRun thinned = SamplingEmulator.thin(run, 1e-4, KINDS, new SplittableRandom(3), 7);
    assertThat(thinned.run().samplingRate()).isEqualTo(1e-4);
    assertThat(thinned.label()).isEqualTo(Label.FAILURE);
    assertThat(thinned.origin()).isEqualTo(run.origin());
    assertThat(thinned.run().durationNanos()).isEqualTo(5_000);
    SiteCounts loop = thinned.run().sites().get(0);
    // Binomial(2,000,000, 1e-4): mean 200, sd about 14.
    assertThat((double) loop.observed()).isCloseTo(200, within(5 * 14.2));
    assertThat(loop.trueCount(0) + loop.trueCount(1)).isEqualTo(loop.observed());
  }

  @Test
  void numericPredicatesStayUnionsOfTheThreeOutcomes() {
    // 300 evaluations < 0, 500 == 0, 700 > 0.
    long[] counts = {300, 800, 700, 1200, 500, 1000};
    SiteCounts thinned =
        SamplingEmulator.thin(
            new SiteCounts(NUMERIC, 1500, counts),
            SiteKind.RETURN_NUMERIC,
            0.3,
            new SplittableRandom(5));
    long lt = thinned.trueCount(SiteKind.LT);
    long eq = thinned.trueCount(SiteKind.EQ);
    long gt = thinned.trueCount(SiteKind.GT);
    assertThat(thinned.observed()).isEqualTo(lt + eq + gt);
    assertThat(thinned.trueCount(SiteKind.LE)).isEqualTo(lt + eq);
    assertThat(thinned.trueCount(SiteKind.GE)).isEqualTo(eq + gt);
    assertThat(thinned.trueCount(SiteKind.NE)).isEqualTo(lt + gt);
    assertThat(lt).isPositive().isLessThan(300);
    assertThat(eq).isPositive().isLessThan(500);
    assertThat(gt).isPositive().isLessThan(700);
  }

  @Test
  void sitesLeftWithoutASampledEvaluationAreDropped() {
    StoredRun run =
        runAtRate(
            1.0,
            new SiteCounts(RARE, 1, new long[] {1, 0}),
            new SiteCounts(REFERENCE, 3_000_000, new long[] {0, 3_000_000}));
    StoredRun thinned = SamplingEmulator.thin(run, 1e-6, KINDS, new SplittableRandom(11), 1);
    // The rare branch survives with probability 1e-6; the hot return almost surely.
    assertThat(thinned.run().sites()).extracting(SiteCounts::siteKey).containsExactly(REFERENCE);
  }

  @Test
  void onlyRunsRecordedAtRateOneCanBeThinned() {
    StoredRun sampled = runAtRate(0.01, new SiteCounts(BRANCH, 3, new long[] {1, 2}));
    assertThatThrownBy(
            () -> SamplingEmulator.thin(sampled, 1e-4, KINDS, new SplittableRandom(1), 1))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("sampled at 0.01");
  }

  @Test
  void countsThatAreNotAPartitionAreRefused() {
    StoredRun odd = runAtRate(1.0, new SiteCounts(BRANCH, 5, new long[] {1, 2}));
    assertThatThrownBy(() -> SamplingEmulator.thin(odd, 0.5, KINDS, new SplittableRandom(1), 1))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("5 evaluations but its outcomes add up to 3");
  }

  @Test
  void aSiteWithoutMetadataIsRefused() {
    StoredRun unknown = runAtRate(1.0, new SiteCounts(99, 1, new long[] {1, 0}));
    assertThatThrownBy(() -> SamplingEmulator.thin(unknown, 0.5, KINDS, new SplittableRandom(1), 1))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("has no metadata");
  }
}
