package dev.whyslow.examples.cpu;

import java.util.HashMap;
import java.util.Map;

/**
 * A CPU-bound, branch-heavy, deterministic workload for the whole-process overhead benchmark:
 * sorting, a small dense matrix product, a hash-map word count and a prime sieve, all in
 * application code the agent instruments. Prints the elapsed time of the measured rounds and a
 * checksum, so a run with the agent can be checked to compute the same thing.
 *
 * <p>Usage: {@code CpuWorkload [warmupRounds] [measuredRounds]}; output: {@code elapsed_ms=...
 * checksum=...}.
 */
public final class CpuWorkload {
  private CpuWorkload() {}

  public static void main(String[] args) {
    int warmup = args.length > 0 ? Integer.parseInt(args[0]) : 20;
    int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 40;
    long checksum = 0;
    for (int i = 0; i < warmup; i++) {
      checksum += round(i);
    }
    long start = System.nanoTime();
    for (int i = 0; i < rounds; i++) {
      checksum += round(warmup + i);
    }
    long elapsedNanos = System.nanoTime() - start;
    System.out.printf("elapsed_ms=%.3f checksum=%d%n", elapsedNanos / 1e6, checksum);
  }

  static long round(int seed) {
    long sum = 0;
    sum += sortChecksum(seed, 50_000);
    sum += matrixTrace(seed, 60);
    sum += wordCount(seed, 20_000);
    sum += primeCount(200_000);
    return sum;
  }

  static long sortChecksum(int seed, int n) {
    int[] data = new int[n];
    long x = seed * 0x9E3779B97F4A7C15L + 1;
    for (int i = 0; i < n; i++) {
      x ^= x << 13;
      x ^= x >>> 7;
      x ^= x << 17;
      data[i] = (int) (x % 1_000_000);
    }
    quickSort(data, 0, n - 1);
    long sum = 0;
    for (int i = 0; i < n; i += 97) {
      sum += data[i];
    }
    return sum;
  }

  static void quickSort(int[] a, int lo, int hi) {
    while (lo < hi) {
      int pivot = a[(lo + hi) >>> 1];
      int i = lo;
      int j = hi;
      while (i <= j) {
        while (a[i] < pivot) {
          i++;
        }
        while (a[j] > pivot) {
          j--;
        }
        if (i <= j) {
          int t = a[i];
          a[i] = a[j];
          a[j] = t;
          i++;
          j--;
        }
      }
      if (j - lo < hi - i) {
        quickSort(a, lo, j);
        lo = i;
      } else {
        quickSort(a, i, hi);
        hi = j;
      }
    }
  }

  static long matrixTrace(int seed, int n) {
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
    return (long) trace;
  }

  static long wordCount(int seed, int words) {
    Map<String, Integer> counts = new HashMap<>();
    StringBuilder word = new StringBuilder();
    int state = seed + 1;
    for (int w = 0; w < words; w++) {
      word.setLength(0);
      int length = 3 + (state & 3);
      for (int c = 0; c < length; c++) {
        state = state * 1103515245 + 12345;
        word.append((char) ('a' + ((state >>> 16) % 6 + 6) % 6));
      }
      counts.merge(word.toString(), 1, Integer::sum);
    }
    long max = 0;
    for (int count : counts.values()) {
      if (count > max) {
        max = count;
      }
    }
    return counts.size() * 1000L + max;
  }

  static long primeCount(int limit) {
    boolean[] composite = new boolean[limit + 1];
    long count = 0;
    for (int i = 2; i <= limit; i++) {
      if (!composite[i]) {
        count++;
        for (long j = (long) i * i; j <= limit; j += i) {
          composite[(int) j] = true;
        }
      }
    }
    return count;
  }
}
