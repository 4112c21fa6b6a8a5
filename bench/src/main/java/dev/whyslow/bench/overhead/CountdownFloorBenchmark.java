package dev.whyslow.bench.overhead;

import dev.whyslow.agent.bootstrap.ChunkedRunCounts;
import dev.whyslow.agent.bootstrap.Probes;
import dev.whyslow.agent.config.ProbeSet;
import dev.whyslow.agent.core.MethodRegistry;
import dev.whyslow.agent.core.SiteRegistry;
import dev.whyslow.agent.instrument.ClassInstrumenter;
import dev.whyslow.agent.instrument.InstrumentationCounters;
import dev.whyslow.bench.MedianInterval;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * How little per-evaluation sampling can cost on {@code CpuWorkload}: times the workload as javac
 * wrote it against {@link CpuWorkloadFloor}, the same kernels with a hand-kept countdown that no
 * instrumentation could keep more cheaply, in one JVM, in alternating batches, as {@link
 * InProcessOverheadBenchmark} does. It checks that both sides compute the same checksums while
 * warming up and, after timing (a run at rate 1 first would leave the agent's probes compiled for
 * rate 1), that the floor counts exactly the evaluations the agent records for a round at rate 1,
 * so the floor leaves out no work the agent must do. With {@code agent} as the last argument it
 * times the agent's own instrumentation of the same kernel instead (branches, returns, units on),
 * so the two can be set side by side kernel by kernel.
 *
 * <p>Usage: {@code CountdownFloorBenchmark [batches=40] [rounds=3] [warmup=100]
 * [round|sort|matrix|word|sieve] [floor|agent]}.
 */
public final class CountdownFloorBenchmark {
  static final String WORKLOAD = InProcessOverheadBenchmark.DEFAULT_PACKAGE + "CpuWorkload";
  private static final String USAGE =
      "usage: CountdownFloorBenchmark [batches] [rounds] [warmup] [round|sort|matrix|word|sieve]"
          + " [floor|agent]";

  private CountdownFloorBenchmark() {}

  public static void main(String[] args) throws Throwable {
    int batches;
    int rounds;
    int warmup;
    String kernel;
    boolean agent;
    try {
      batches = args.length > 0 ? InProcessOverheadBenchmark.positive(args[0]) : 40;
      rounds = args.length > 1 ? InProcessOverheadBenchmark.positive(args[1]) : 3;
      warmup = args.length > 2 ? InProcessOverheadBenchmark.positive(args[2]) : 100;
      kernel = args.length > 3 ? args[3] : "round";
      kernelName(kernel);
      String subject = args.length > 4 ? args[4] : "floor";
      if (!subject.equals("floor") && !subject.equals("agent")) {
        throw new IllegalArgumentException("expected floor or agent, not " + subject);
      }
      agent = subject.equals("agent");
    } catch (IllegalArgumentException e) {
      System.err.println("bad argument: " + e.getMessage() + "\n" + USAGE);
      System.exit(2);
      return;
    }

    Probes.setSamplingRate(1e-4);
    CpuWorkloadFloor.Countdown.rate(1e-4);
    MethodHandle plain =
        kernel(
            new InProcessOverheadBenchmark.WorkloadLoader(
                    null, InProcessOverheadBenchmark.DEFAULT_PACKAGE)
                .loadClass(WORKLOAD),
            kernel);
    MethodHandle subject =
        agent ? kernel(instrumentedWorkload(true), kernel) : kernel(CpuWorkloadFloor.class, kernel);
    int seed = 0;
    for (int i = 0; i < warmup; i++, seed++) {
      long p = (long) plain.invokeExact(seed);
      long s = (long) subject.invokeExact(seed);
      if (p != s) {
        throw new IllegalStateException("seed " + seed + ": plain " + p + ", timed copy " + s);
      }
    }
    long samplesBefore = agent ? Probes.samplesRecorded() : CpuWorkloadFloor.Countdown.samples;
    List<Double> ratios = new ArrayList<>();
    for (int b = 0; b < batches; b++, seed += rounds) {
      double p;
      double s;
      if (b % 2 == 0) {
        p = InProcessOverheadBenchmark.time(plain, seed, rounds);
        s = InProcessOverheadBenchmark.time(subject, seed, rounds);
      } else {
        s = InProcessOverheadBenchmark.time(subject, seed, rounds);
        p = InProcessOverheadBenchmark.time(plain, seed, rounds);
      }
      ratios.add(s / p);
    }
    long samples =
        (agent ? Probes.samplesRecorded() : CpuWorkloadFloor.Countdown.samples) - samplesBefore;
    // After the timing: at rate 1 every sampled path runs, and the profiles C2 compiles the
    // agent's probes from would no longer be those of 1/10000.
    long agentCount = agentEvaluations(7);
    long floorCount = floorEvaluations(7);
    double median = MedianInterval.median(ratios);
    List<Double> sorted = new ArrayList<>(ratios);
    sorted.sort(null);
    System.out.printf(
        Locale.ROOT,
        "%s, %s, %d batches of %d: median %s/plain %.4f (%+.2f %%), quartiles %.4f .. %.4f;"
            + " %d samples at 1/10000 while timed%n",
        kernel,
        agent ? "agent" : "floor",
        batches,
        rounds,
        agent ? "agent" : "floor",
        median,
        (median - 1) * 100,
        sorted.get(sorted.size() / 4),
        sorted.get(sorted.size() * 3 / 4),
        samples);
    System.out.printf(
        Locale.ROOT,
        "evaluations in round 7: agent at rate 1 records %d, the floor counts %d%n",
        agentCount,
        floorCount);
    if (agentCount != floorCount) {
      System.err.println("the floor does not count what the agent records: the figure is void");
      System.exit(1);
    }
  }

  /** What the agent records for one round at rate 1: every branch and return evaluation. */
  static long agentEvaluations(int seed) throws Throwable {
    double rate = Probes.samplingRate();
    Probes.setSamplingRate(1.0);
    try {
      MethodHandle round = kernel(instrumentedWorkload(false), "round");
      long before = Probes.samplesRecorded();
      long checksum = (long) round.invokeExact(seed);
      long after = Probes.samplesRecorded();
      if (checksum != CpuWorkloadFloor.round(seed)) {
        throw new IllegalStateException("the instrumented round computes something else");
      }
      return after - before;
    } finally {
      Probes.setSamplingRate(rate);
    }
  }

  /** How far one round of the floor moves its countdown. */
  static long floorEvaluations(int seed) {
    long start = Long.MAX_VALUE / 2;
    CpuWorkloadFloor.Countdown.left = start;
    CpuWorkloadFloor.round(seed);
    return start - CpuWorkloadFloor.Countdown.left;
  }

  /** {@code CpuWorkload} as the agent rewrites it, in a loader of its own. */
  private static Class<?> instrumentedWorkload(boolean units) throws ClassNotFoundException {
    SiteRegistry sites = new SiteRegistry(1_000_000);
    ClassInstrumenter instrumenter =
        ClassInstrumenter.builder(sites, new ProbeSet(true, true), new InstrumentationCounters())
            .methods(new MethodRegistry())
            .units(units, List.of())
            .build();
    Probes.warmUp();
    Probes.setProcessRun(new ChunkedRunCounts(sites.slotCapacity()));
    return new InProcessOverheadBenchmark.WorkloadLoader(
            instrumenter, InProcessOverheadBenchmark.DEFAULT_PACKAGE)
        .loadClass(WORKLOAD);
  }

  /** The named kernel of {@code owner} as a method from seed to checksum. */
  private static MethodHandle kernel(Class<?> owner, String kernel) throws Exception {
    MethodHandles.Lookup lookup = MethodHandles.privateLookupIn(owner, MethodHandles.lookup());
    MethodType seedAndSize = MethodType.methodType(long.class, int.class, int.class);
    return switch (kernelName(kernel)) {
      case "round" ->
          lookup.findStatic(owner, "round", MethodType.methodType(long.class, int.class));
      case "sortChecksum" ->
          MethodHandles.insertArguments(
              lookup.findStatic(owner, "sortChecksum", seedAndSize), 1, 50_000);
      case "matrixTrace" ->
          MethodHandles.insertArguments(
              lookup.findStatic(owner, "matrixTrace", seedAndSize), 1, 60);
      case "wordCount" ->
          MethodHandles.insertArguments(
              lookup.findStatic(owner, "wordCount", seedAndSize), 1, 20_000);
      default ->
          MethodHandles.dropArguments(
              MethodHandles.insertArguments(
                  lookup.findStatic(
                      owner, "primeCount", MethodType.methodType(long.class, int.class)),
                  0,
                  200_000),
              0,
              int.class);
    };
  }

  private static String kernelName(String kernel) {
    return switch (kernel) {
      case "round" -> "round";
      case "sort" -> "sortChecksum";
      case "matrix" -> "matrixTrace";
      case "word" -> "wordCount";
      case "sieve" -> "primeCount";
      default -> throw new IllegalArgumentException("unknown kernel " + kernel);
    };
  }
}
