package dev.whyslow.agent.bootstrap;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** {@code sampling.seed}: a thread's sampler starts from the seed and the thread's id alone. */
class FixedSeedTest {
  @AfterEach
  void randomAgain() {
    ThreadState.unfixSeeds();
  }

  @Test
  void withAFixedSeedAThreadDrawsTheSameNumbersEveryTime() {
    ThreadState.fixSeeds(194_582L);
    assertThat(draws(new ThreadState())).isEqualTo(draws(new ThreadState()));
  }

  @Test
  void withAFixedSeedOtherThreadsAndOtherSeedsDrawOtherNumbers() throws InterruptedException {
    ThreadState.fixSeeds(194_582L);
    long[] here = draws(new ThreadState());
    AtomicReference<long[]> there = new AtomicReference<>();
    Thread other = new Thread(() -> there.set(draws(new ThreadState())));
    other.start();
    other.join();
    assertThat(there.get()).isNotEqualTo(here);

    ThreadState.fixSeeds(194_583L);
    assertThat(draws(new ThreadState())).isNotEqualTo(here);
  }

  @Test
  void withoutASeedEveryStateStartsSomewhereElse() {
    assertThat(draws(new ThreadState())).isNotEqualTo(draws(new ThreadState()));
  }

  private static long[] draws(ThreadState state) {
    long[] out = new long[8];
    for (int i = 0; i < out.length; i++) {
      out[i] = state.nextLong();
    }
    return out;
  }
}
