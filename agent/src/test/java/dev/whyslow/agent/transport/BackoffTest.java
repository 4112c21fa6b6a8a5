package dev.whyslow.agent.transport;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.random.RandomGenerator;
import org.junit.jupiter.api.Test;

class BackoffTest {
  /** Always picks the top of the jitter range, so delays show the caps. */
  private static final RandomGenerator HIGHEST =
      new RandomGenerator() {
        @Override
        public long nextLong() {
          return 0;
        }

        @Override
        public long nextLong(long bound) {
          return bound - 1;
        }
      };

  @Test
  void theCapDoublesFromInitialToMax() {
    Backoff backoff = new Backoff(100, 1_000, HIGHEST);

    List<Long> delays = new ArrayList<>();
    for (int i = 0; i < 6; i++) {
      delays.add(backoff.nextDelayMillis());
    }

    assertThat(delays).containsExactly(100L, 200L, 400L, 800L, 1_000L, 1_000L);
  }

  @Test
  void delaysAreFullyJitteredBetweenZeroAndTheCap() {
    Backoff backoff = new Backoff(100, 100, new SplittableRandom(7));

    long min = Long.MAX_VALUE;
    long max = Long.MIN_VALUE;
    for (int i = 0; i < 2_000; i++) {
      long delay = backoff.nextDelayMillis();
      min = Math.min(min, delay);
      max = Math.max(max, delay);
    }

    assertThat(min).isBetween(0L, 5L);
    assertThat(max).isBetween(95L, 100L);
  }

  @Test
  void resetStartsTheNextOutageFromTheInitialCap() {
    Backoff backoff = new Backoff(100, 1_000, HIGHEST);
    backoff.nextDelayMillis();
    backoff.nextDelayMillis();

    backoff.reset();

    assertThat(backoff.nextDelayMillis()).isEqualTo(100);
  }

  @Test
  void manyAttemptsNeverOverflowPastTheMax() {
    Backoff backoff = new Backoff(3, Long.MAX_VALUE / 2, HIGHEST);

    long last = 0;
    for (int i = 0; i < 200; i++) {
      last = backoff.nextDelayMillis();
      assertThat(last).isBetween(0L, Long.MAX_VALUE / 2);
    }
    assertThat(last).isEqualTo(Long.MAX_VALUE / 2);
    assertThat(backoff.capMillis(1_000)).isEqualTo(Long.MAX_VALUE / 2);
  }
}
