package dev.whyslow.agent.bootstrap;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.management.ManagementFactory;
import org.junit.jupiter.api.Test;

class TypeInferenceTest {
  @Test
  void theTypeWithMostHitsWins() {
    TypeInference inference = new TypeInference(4);
    inference.hit(0b0111);
    inference.hit(0b0100);

    assertThat(inference.best(new long[] {5, 1, 9, 1})).isEqualTo(2);
    assertThat(inference.hitsOf(2)).isEqualTo(2);
  }

  @Test
  void tiesGoToTheSmallestKnownThresholdAndUnknownRanksLast() {
    TypeInference inference = new TypeInference(4);
    inference.hit(0b1110);

    assertThat(inference.best(new long[] {1, 300, 200, 250})).isEqualTo(2);
    // 0 = no threshold known: +infinity, so the known 300 wins.
    assertThat(inference.best(new long[] {1, 300, 0, 0})).isEqualTo(1);
    // None known: the smallest index.
    assertThat(inference.best(new long[4])).isEqualTo(1);
    // A short threshold array means unknown for the rest.
    assertThat(inference.best(new long[] {1, 0, 0})).isEqualTo(1);
  }

  @Test
  void resetForgetsThePreviousUnitAndNoHitMeansNoType() {
    TypeInference inference = new TypeInference(64);
    assertThat(inference.best(new long[0])).isEqualTo(-1);
    inference.hit(1L << 63);
    assertThat(inference.best(new long[0])).isEqualTo(63);

    inference.reset();
    assertThat(inference.best(new long[0])).isEqualTo(-1);
    assertThat(inference.hitsOf(63)).isZero();
    inference.hit(0L);
    assertThat(inference.best(new long[0])).isEqualTo(-1);
  }

  @Test
  void bitsBeyondMaxTypesAreIgnored() {
    TypeInference inference = new TypeInference(2);
    inference.hit(0b100);
    assertThat(inference.best(new long[0])).isEqualTo(-1);
  }

  @Test
  void hitAndBestAllocateNothing() {
    com.sun.management.ThreadMXBean threads =
        (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
    TypeInference inference = new TypeInference(64);
    long[] thresholds = new long[64];
    long sink = 0;
    for (int i = 0; i < 20_000; i++) { // warm up so the JIT has settled
      sink += cycle(inference, thresholds, i);
    }
    long before = threads.getThreadAllocatedBytes(Thread.currentThread().getId());
    for (int i = 0; i < 100_000; i++) {
      sink += cycle(inference, thresholds, i);
    }
    long allocated = threads.getThreadAllocatedBytes(Thread.currentThread().getId()) - before;
    assertThat(sink).isNotZero();
    // getThreadAllocatedBytes itself may allocate a little; 100k cycles that allocated would be
    // MBs.
    assertThat(allocated).isLessThan(4096);
  }

  private static int cycle(TypeInference inference, long[] thresholds, int i) {
    inference.reset();
    inference.hit(0b1011L << (i & 7));
    inference.hit(0b10L << (i & 15));
    return inference.best(thresholds) + 1;
  }
}
