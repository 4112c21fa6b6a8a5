package dev.whyslow.bench.overhead;

import java.util.HashMap;
import java.util.Map;

/**
 * {@code CpuWorkload}'s kernels with the least work per-evaluation sampling (DESIGN §4) can do,
 * hand written: the same computation, and a countdown that every branch and return evaluation of
 * the original bytecode moves down by one, kept as cheaply as any agent could keep it. It is the
 * floor under {@link InProcessOverheadBenchmark}'s figure: what the agent would cost on this
 * workload if its instrumentation were perfect.
 *
 * <p>What "perfect" grants, each more than the agent can do in general:
 *
 * <ul>
 *   <li>A loop nest whose evaluations are known on entry (the matrix product, a fill loop, the
 *       sieve's inner loop) is checked once, before it, and then runs exactly as javac wrote it.
 *   <li>A scan loop such as {@code while (a[i] < pivot) i++} is settled from how far its counter
 *       moved, with no work per iteration.
 *   <li>A loop whose length is not known on entry (quicksort's partition pass, an iterator) pays
 *       one subtraction and one compare per iteration, the least that can tell when a sample falls.
 *   <li>There is one thread, so the countdown is a static field, loaded on entry and stored before
 *       calls and on exit, with no thread-state lookup; there is no depth count (units off).
 *   <li>The sampled path only counts how many samples fell, not where: it is taken one evaluation
 *       in 10,000, so where does not change the cost.
 * </ul>
 *
 * <p>{@link CountdownFloorBenchmark} checks that one round here moves the countdown by exactly as
 * many evaluations as the agent records for the same round at rate 1.
 */
final class CpuWorkloadFloor {
  private CpuWorkloadFloor() {}

  static long round(int seed) {
    long sum = 0;
    sum += sortChecksum(seed, 50_000);
    sum += matrixTrace(seed, 60);
    sum += wordCount(seed, 20_000);
    sum += primeCount(200_000);
    Countdown.left--; // round's own return
    return sum;
  }

  static long sortChecksum(int seed, int n) {
    long cd = Countdown.left;
    int[] data = new int[n];
    long x = seed * 0x9E3779B97F4A7C15L + 1;
    if ((cd -= n + 1) <= 0) { // the fill loop's n + 1 tests
      cd = Countdown.sampled(cd);
    }
    for (int i = 0; i < n; i++) {
      x ^= x << 13;
      x ^= x >>> 7;
      x ^= x << 17;
      data[i] = (int) (x % 1_000_000);
    }
    Countdown.left = cd;
    quickSort(data, 0, n - 1);
    cd = Countdown.left;
    int strides = n > 0 ? (n + 96) / 97 : 0;
    if ((cd -= strides + 2) <= 0) { // the stride loop's tests and the return
      cd = Countdown.sampled(cd);
    }
    long sum = 0;
    for (int i = 0; i < n; i += 97) {
      sum += data[i];
    }
    Countdown.left = cd;
    return sum;
  }

  static void quickSort(int[] a, int lo, int hi) {
    long cd = Countdown.left;
    while (true) {
      cd--; // lo < hi
      if (lo >= hi) {
        break;
      }
      int pivot = a[(lo + hi) >>> 1];
      int i = lo;
      int j = hi;
      while (true) {
        cd--; // i <= j
        if (i > j) {
          break;
        }
        // Offset by the counters, so the scans' evaluations need no work inside them: each scan
        // evaluates its test once per step of its counter, plus the test that stops it.
        long settle = cd + i - j - 3; // two stopping tests and the if below
        while (a[i] < pivot) {
          i++;
        }
        while (a[j] > pivot) {
          j--;
        }
        cd = settle - i + j;
        if (cd <= 0) {
          cd = Countdown.sampled(cd);
        }
        if (i <= j) {
          int t = a[i];
          a[i] = a[j];
          a[j] = t;
          i++;
          j--;
        }
      }
      cd--; // j - lo < hi - i
      Countdown.left = cd;
      if (j - lo < hi - i) {
        quickSort(a, lo, j);
        lo = i;
      } else {
        quickSort(a, i, hi);
        hi = j;
      }
      cd = Countdown.left;
    }
    Countdown.left = cd;
  }

  static long matrixTrace(int seed, int n) {
    long cd = Countdown.left;
    long square = (long) n * n;
    long fill = n + 1 + n * (n + 1L); // the fill's two loop tests
    long product = n + 1 + n * (n + 1L) + square * (n + 1) + square; // three tests and i == j
    if ((cd -= fill + product + 1) <= 0) { // and the return
      cd = Countdown.sampled(cd);
    }
    double[][] a = new double[n][n];
    double[][] b = new double[n][n];
    for (int i = 0; i < n; i++) {
      for (int j = 0; j < n; j++) {
        a[i][j] = ((i * 31 + j * 17 + seed) % 13) - 6;
        b[i][j] = ((i * 7 + j * 29 + seed) % 11) - 5;
      }
    }
    double trace = 0;
    for (int i = 0; i < n; i++) {
      for (int j = 0; j < n; j++) {
        double s = 0;
        for (int k = 0; k < n; k++) {
          s += a[i][k] * b[k][j];
        }
        if (i == j) {
          trace += s;
        }
      }
    }
    Countdown.left = cd;
    return (long) trace;
  }

  static long wordCount(int seed, int words) {
    long cd = Countdown.left;
    Map<String, Integer> counts = new HashMap<>();
    StringBuilder word = new StringBuilder();
    int state = seed + 1;
    for (int w = 0; w < words; w++) {
      word.setLength(0);
      int length = 3 + (state & 3);
      if ((cd -= length + 2) <= 0) { // w < words, and the letter loop's length + 1 tests
        cd = Countdown.sampled(cd);
      }
      for (int c = 0; c < length; c++) {
        state = state * 1103515245 + 12345;
        word.append((char) ('a' + ((state >>> 16) % 6 + 6) % 6));
      }
      counts.merge(word.toString(), 1, Integer::sum);
    }
    cd--; // the last w < words
    long max = 0;
    for (int count : counts.values()) {
      if ((cd -= 2) <= 0) { // hasNext and count > max
        cd = Countdown.sampled(cd);
      }
      if (count > max) {
        max = count;
      }
    }
    cd -= 2; // the last hasNext, and the return
    Countdown.left = cd;
    return counts.size() * 1000L + max;
  }

  static long primeCount(int limit) {
    long cd = Countdown.left;
    boolean[] composite = new boolean[limit + 1];
    long count = 0;
    for (int i = 2; i <= limit; i++) {
      if (!composite[i]) {
        count++;
        long first = (long) i * i;
        long steps = first <= limit ? (limit - first) / i + 1 : 0;
        // the inner loop's tests, known before it runs; the outer loop's own tests and ifs are
        // known on entry, and settled after it
        if ((cd -= steps + 1) <= 0) {
          cd = Countdown.sampled(cd);
        }
        for (long j = first; j <= limit; j += i) {
          composite[(int) j] = true;
        }
      }
    }
    cd -= 2L * Math.max(0, limit - 1) + 2; // the outer loop's tests and ifs, its last test, return
    if (cd <= 0) {
      cd = Countdown.sampled(cd);
    }
    Countdown.left = cd;
    return count;
  }

  /** The one thread's countdown: evaluations left until the next sample, and the samples. */
  static final class Countdown {
    static long left = Long.MAX_VALUE / 2;
    static long samples;
    private static double logKeep = Math.log1p(-1e-4);
    private static long random = 0x2545F4914F6CDD1DL;

    private Countdown() {}

    static void rate(double rate) {
      logKeep = Math.log1p(-rate);
      left = draw();
    }

    /** Counts the samples that fell at or before this point and returns the next countdown. */
    static long sampled(long cd) {
      while (cd <= 0) {
        samples++;
        cd += draw();
      }
      return cd;
    }

    private static long draw() {
      random ^= random << 13;
      random ^= random >>> 7;
      random ^= random << 17;
      double u = ((random >>> 11) + 1) * 0x1.0p-53; // in (0, 1]
      return (long) Math.floor(Math.log(u) / logKeep) + 1;
    }
  }
}
