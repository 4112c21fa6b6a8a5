package dev.whyslow.agent.units.training;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.Random;
import org.junit.jupiter.api.Test;

class CallPathTest {
  @Test
  void identicalPathsAreAtZeroAndDisjointOnesAtOne() {
    assertThat(CallPath.distance(path(1, 2, 3), path(1, 2, 3))).isZero();
    assertThat(CallPath.distance(path(1, 2, 3), path(4, 5))).isEqualTo(1.0);
    assertThat(CallPath.distance(path(), path())).isZero();
    assertThat(CallPath.distance(path(), path(7))).isEqualTo(1.0);
  }

  @Test
  void distanceIsTheShareOfTheLongerPathOutsideTheCommonSubsequence() {
    // LCS([a,b,c,d], [a,c,e]) = [a,c]: (4 - 2) / 4.
    assertThat(CallPath.distance(path(1, 2, 3, 4), path(1, 3, 5))).isEqualTo(0.5);
    // LCS([a,b,a,b], [b,a,b,a]) = [a,b,a] or [b,a,b]: (4 - 3) / 4.
    assertThat(CallPath.distance(path(1, 2, 1, 2), path(2, 1, 2, 1))).isEqualTo(0.25);
    // Order matters: [a,b,c] and [c,b,a] share one method in order.
    assertThat(CallPath.distance(path(1, 2, 3), path(3, 2, 1))).isCloseTo(2 / 3.0, within(1e-12));
  }

  @Test
  void bitParallelLcsAgreesWithTheTextbookTableUpToSixtyFourFrames() {
    Random random = new Random(7);
    for (int round = 0; round < 2000; round++) {
      int[] a = randomPath(random, random.nextInt(65));
      int[] b = randomPath(random, random.nextInt(65));
      assertThat(CallPath.lcsLength(new CallPath(a), new CallPath(b)))
          .as("round %d", round)
          .isEqualTo(dynamicLcs(a, b));
    }
  }

  private static int[] randomPath(Random random, int length) {
    int[] p = new int[length];
    int alphabet = 1 + random.nextInt(12);
    for (int i = 0; i < length; i++) {
      p[i] = random.nextInt(alphabet);
    }
    return p;
  }

  private static int dynamicLcs(int[] a, int[] b) {
    int[][] t = new int[a.length + 1][b.length + 1];
    for (int i = 1; i <= a.length; i++) {
      for (int j = 1; j <= b.length; j++) {
        t[i][j] = a[i - 1] == b[j - 1] ? t[i - 1][j - 1] + 1 : Math.max(t[i - 1][j], t[i][j - 1]);
      }
    }
    return t[a.length][b.length];
  }

  private static CallPath path(int... methods) {
    return new CallPath(methods);
  }
}
