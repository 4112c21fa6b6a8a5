package dev.whyslow.agent.core;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** When the JIT counts as settled: under 1 % of a whole window spent compiling, then for good. */
class JitSettlingTest {
  private long now;
  private long compiled;

  private JitSettling settling(long windowMillis) {
    return new JitSettling(windowMillis, () -> compiled, () -> now);
  }

  /** Moves the clock by a second, {@code compilingMillis} of it spent by the JIT. */
  private void second(long compilingMillis) {
    now += 1_000;
    compiled += compilingMillis;
  }

  @Test
  void aJitCompilingMoreThanOnePercentOfTheWindowHasNotSettled() {
    JitSettling jit = settling(5_000);
    assertThat(jit.settled()).as("no window yet").isFalse();
    for (int s = 0; s < 20; s++) {
      second(60); // 6 %
      assertThat(jit.settled()).isFalse();
    }
  }

  @Test
  void aWholeWindowAlmostIdleSettlesItForGood() {
    JitSettling jit = settling(5_000);
    jit.settled();
    for (int s = 0; s < 3; s++) {
      second(400);
      assertThat(jit.settled()).isFalse();
    }
    for (int s = 0; s < 4; s++) {
      second(5);
      assertThat(jit.settled()).as("the window still holds busy seconds, second %d", s).isFalse();
    }
    second(5);
    assertThat(jit.settled()).as("five seconds at 0.5 %").isTrue();
    second(900);
    assertThat(jit.settled()).as("once settled, for good").isTrue();
  }

  @Test
  void aBurstWithinTheWindowKeepsItUnsettled() {
    JitSettling jit = settling(5_000);
    jit.settled();
    second(0);
    jit.settled();
    second(0);
    jit.settled();
    second(200); // 4 % of the window in one burst
    jit.settled();
    second(0);
    jit.settled();
    second(0);
    assertThat(jit.settled()).isFalse();
  }

  @Test
  void aJvmThatReportsNoCompileTimeSettlesAfterTenWindows() {
    compiled = -1;
    JitSettling jit = new JitSettling(1_000, () -> -1, () -> now);
    now += 9_000;
    assertThat(jit.settled()).isFalse();
    now += 1_000;
    assertThat(jit.settled()).isTrue();
  }
}
