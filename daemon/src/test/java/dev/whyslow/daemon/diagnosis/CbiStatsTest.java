package dev.whyslow.daemon.diagnosis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import dev.whyslow.daemon.diagnosis.CbiOptions.ImportanceBasis;
import org.junit.jupiter.api.Test;

class CbiStatsTest {
  private static final double Z99 = 2.5758293035489;

  @Test
  void criticalValuesAreTwoSidedNormalQuantiles() {
    assertThat(CbiOptions.defaults().z()).isCloseTo(Z99, within(1e-9));
    assertThat(CbiOptions.defaults().withConfidence(0.95).z())
        .isCloseTo(1.959963984540054, within(1e-9));
  }

  @Test
  void emptyProportionsScoreZeroNotNaN() {
    CbiStats s = CbiStats.of(new PredicateCounts(0, 0, 0, 0, 0, 0), Z99, ImportanceBasis.INCREASE);

    assertThat(s.failure()).isZero();
    assertThat(s.context()).isZero();
    assertThat(s.increase()).isZero();
    assertThat(s.standardError()).isZero();
    assertThat(s.lowerBound()).isZero();
    assertThat(s.importance()).isZero();
    assertThat(s.passes(1)).isFalse();
  }

  @Test
  void recallIsOneWhenTheOnlyFailingRunHasThePredicate() {
    assertThat(CbiStats.recall(1, 1)).isEqualTo(1.0);
  }

  @Test
  void recallIsZeroWhenThePredicateIsTrueInOneOfManyFailingRuns() {
    // log 1 = 0: Importance must then be 0, not NaN.
    assertThat(CbiStats.recall(1, 10)).isZero();
    CbiStats s =
        CbiStats.of(new PredicateCounts(1, 0, 1, 5, 10, 10), Z99, ImportanceBasis.INCREASE);
    assertThat(s.importance()).isZero();
    assertThat(s.increase()).isGreaterThan(0);
  }

  @Test
  void recallIsClampedAndZeroWithoutFailingRuns() {
    assertThat(CbiStats.recall(0, 10)).isZero();
    assertThat(CbiStats.recall(3, 0)).isZero();
    assertThat(CbiStats.recall(10, 10)).isEqualTo(1.0);
  }

  @Test
  void aZeroStandardErrorIsOnlyTrustedWithEnoughSupport() {
    // Failure = Context = 1 - ... : S(P true) = 0 and F(P obs) = all observed make SE 0.
    CbiStats s = CbiStats.of(new PredicateCounts(3, 0, 3, 0, 3, 5), Z99, ImportanceBasis.INCREASE);

    assertThat(s.standardError()).isZero();
    assertThat(s.increase()).isZero();
    assertThat(s.passes(1)).isFalse();
    CbiStats thin =
        CbiStats.of(new PredicateCounts(3, 0, 3, 30, 10, 30), Z99, ImportanceBasis.INCREASE);
    assertThat(thin.lowerBound()).isGreaterThan(0);
    assertThat(thin.passes(10)).isFalse();
    assertThat(thin.passes(3)).isTrue();
  }

  @Test
  void badOptionsAreRejectedWithTheValue() {
    assertThatThrownBy(() -> CbiOptions.defaults().withConfidence(99))
        .hasMessageContaining("(0, 1)")
        .hasMessageContaining("99");
    assertThatThrownBy(() -> CbiOptions.defaults().withMinSupport(0)).hasMessageContaining("was 0");
  }

  @Test
  void inconsistentCountsAreRejected() {
    assertThatThrownBy(() -> new PredicateCounts(5, 0, 3, 0, 10, 10))
        .hasMessageContaining("F(P true)=5");
  }
}
