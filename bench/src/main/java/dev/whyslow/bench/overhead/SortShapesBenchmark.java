package dev.whyslow.bench.overhead;

import dev.whyslow.agent.bootstrap.ChunkedRunCounts;
import dev.whyslow.agent.bootstrap.Probes;
import dev.whyslow.bench.MedianInterval;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * What each element of the instrumentation costs on {@code CpuWorkload}'s quicksort, the kernel
 * that takes two thirds of its time: times one {@link SortShapes} shape against the plain sort in
 * one JVM, in alternating batches, and prints the median batch ratio. Run one shape per JVM, so one
 * shape's profile does not shape another's compiled code:
 *
 * <pre>
 * for s in floor staticState stateParam threadState depthField depthLocal scanDecrements agentFastCopy; do
 *   java -cp bench/target/whyslow-bench.jar dev.whyslow.bench.overhead.SortShapesBenchmark $s
 * done
 * </pre>
 *
 * <p>Usage: {@code SortShapesBenchmark shape [batches=40] [rounds=3] [warmup=200]}.
 */
public final class SortShapesBenchmark {
  private static final Map<String, SortShapes.Shape> SHAPES =
      Map.of(
          "floor", SortShapes::floor,
          "threadState", SortShapes::threadState,
          "staticState", SortShapes::staticState,
          "stateParam", SortShapes::stateParam,
          "depthField", SortShapes::depthField,
          "depthLocal", SortShapes::depthLocal,
          "scanDecrements", SortShapes::scanDecrements,
          "agentFastCopy", SortShapes::agentFastCopy);
  private static final int SIZE = 50_000;

  private SortShapesBenchmark() {}

  public static void main(String[] args) {
    SortShapes.Shape shape = args.length > 0 ? SHAPES.get(args[0]) : null;
    int batches;
    int rounds;
    int warmup;
    try {
      if (shape == null) {
        throw new IllegalArgumentException(
            "no shape "
                + (args.length > 0 ? args[0] : "given")
                + "; shapes: "
                + String.join(" ", SHAPES.keySet().stream().sorted().toList()));
      }
      batches = args.length > 1 ? InProcessOverheadBenchmark.positive(args[1]) : 40;
      rounds = args.length > 2 ? InProcessOverheadBenchmark.positive(args[2]) : 3;
      warmup = args.length > 3 ? InProcessOverheadBenchmark.positive(args[3]) : 200;
    } catch (IllegalArgumentException e) {
      System.err.println(
          "bad argument: "
              + e.getMessage()
              + "\nusage: SortShapesBenchmark shape [batches] [rounds] [warmup]");
      System.exit(2);
      return;
    }
    Probes.warmUp();
    Probes.setProcessRun(new ChunkedRunCounts(64));
    CpuWorkloadFloor.Countdown.rate(1e-4);
    SortShapes.Shape plain = SortShapes::plain;
    for (int w = 0; w < warmup; w++) {
      int[] expected = data(w);
      int[] actual = expected.clone();
      plain.sort(expected, 0, SIZE - 1);
      shape.sort(actual, 0, SIZE - 1);
      if (!Arrays.equals(expected, actual)) {
        throw new IllegalStateException(args[0] + " sorts differently");
      }
    }
    List<Double> ratios = new ArrayList<>();
    for (int b = 0; b < batches; b++) {
      double p;
      double q;
      if (b % 2 == 0) {
        p = time(plain, b, rounds);
        q = time(shape, b, rounds);
      } else {
        q = time(shape, b, rounds);
        p = time(plain, b, rounds);
      }
      ratios.add(q / p);
    }
    List<Double> sorted = new ArrayList<>(ratios);
    sorted.sort(null);
    double median = MedianInterval.median(ratios);
    System.out.printf(
        Locale.ROOT,
        "%s: median shape/plain %.4f (%+.2f %%), quartiles %.4f .. %.4f%n",
        args[0],
        median,
        (median - 1) * 100,
        sorted.get(sorted.size() / 4),
        sorted.get(sorted.size() * 3 / 4));
  }

  private static double time(SortShapes.Shape shape, int batch, int rounds) {
    long elapsed = 0;
    for (int r = 0; r < rounds; r++) {
      int[] a = data(batch * rounds + r);
      long start = System.nanoTime();
      shape.sort(a, 0, SIZE - 1);
      elapsed += System.nanoTime() - start;
    }
    return elapsed / 1e6;
  }

  /** The same pseudo-random data {@code CpuWorkload.sortChecksum} sorts. */
  private static int[] data(int seed) {
    int[] data = new int[SIZE];
    long x = seed * 0x9E3779B97F4A7C15L + 1;
    for (int i = 0; i < SIZE; i++) {
      x ^= x << 13;
      x ^= x >>> 7;
      x ^= x << 17;
      data[i] = (int) (x % 1_000_000);
    }
    return data;
  }
}
