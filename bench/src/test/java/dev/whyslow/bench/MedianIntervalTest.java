package dev.whyslow.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/** The interval's ranks and coverage against binomial(n, 1/2) tables worked out by hand. */
class MedianIntervalTest {
  private static List<Double> oneTo(int n) {
    List<Double> values = new ArrayList<>();
    IntStream.rangeClosed(1, n).forEach(i -> values.add((double) i));
    Collections.shuffle(values, new java.util.Random(n)); // the order given must not matter
    return values;
  }

  @Test
  void eightPairsGiveTheWholeRangeAt95Percent() {
    // P(X <= 0) = 1/256 <= 0.025 but P(X <= 1) = 9/256 > 0.025: k = 1.
    MedianInterval interval = MedianInterval.of(oneTo(8), 0.95);
    assertThat(interval.k()).isEqualTo(1);
    assertThat(interval.low()).isEqualTo(1.0);
    assertThat(interval.high()).isEqualTo(8.0);
    assertThat(interval.coverage()).isCloseTo(1 - 2.0 / 256, within(1e-12));
  }

  @Test
  void sixteenPairsDropThreeAtEachEnd() {
    // P(X <= 3) = (1 + 16 + 120 + 560) / 65536 = 0.0106; P(X <= 4) adds 1820/65536: 0.0384.
    MedianInterval interval = MedianInterval.of(oneTo(16), 0.95);
    assertThat(interval.k()).isEqualTo(4);
    assertThat(interval.low()).isEqualTo(4.0);
    assertThat(interval.high()).isEqualTo(13.0);
    assertThat(interval.coverage()).isCloseTo(1 - 2 * 697.0 / 65536, within(1e-12));
  }

  @Test
  void tooFewValuesSayWhatTheyCover() {
    // Five values cannot reach 95 %: the whole range covers 1 - 2/32.
    MedianInterval interval = MedianInterval.of(oneTo(5), 0.95);
    assertThat(interval.k()).isEqualTo(1);
    assertThat(interval.coverage()).isCloseTo(0.9375, within(1e-12));
    assertThat(MedianInterval.of(List.of(1.2), 0.95).low()).isEqualTo(1.2);
  }

  @Test
  void longSeriesDoNotUnderflow() {
    // 2^-2001 is below the smallest double; the normal approximation puts k near
    // 1001 - 1.96 * sqrt(2001) / 2, about 957.
    MedianInterval interval = MedianInterval.of(oneTo(2001), 0.95);
    assertThat(interval.k()).isBetween(950, 962);
    assertThat(interval.low()).isEqualTo(interval.k());
    assertThat(interval.high()).isEqualTo(2002 - interval.k());
    assertThat(interval.coverage()).isBetween(0.95, 0.96);
  }

  @Test
  void theMedianOfAnEvenCountIsTheMeanOfTheMiddleTwo() {
    assertThat(MedianInterval.median(oneTo(7))).isEqualTo(4.0);
    assertThat(MedianInterval.median(oneTo(8))).isEqualTo(4.5);
    assertThatThrownBy(() -> MedianInterval.median(List.of()))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void printsAsOverhead() {
    List<Double> ratios = List.of(1.10, 1.02, 1.05, 1.20, 1.08, 1.07, 1.01, 1.12);
    assertThat(MedianInterval.of(ratios, 0.95).asOverhead(8))
        .isEqualTo("+1.00 .. +20.00 %, 99.2 % coverage (1st to 8th of 8)");
  }

  @Test
  void rejectsNoValuesAndAbsurdConfidence() {
    assertThatThrownBy(() -> MedianInterval.of(List.of(), 0.95))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("no values");
    assertThatThrownBy(() -> MedianInterval.of(List.of(1.0), 1.0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("not in (0, 1)");
  }
}
