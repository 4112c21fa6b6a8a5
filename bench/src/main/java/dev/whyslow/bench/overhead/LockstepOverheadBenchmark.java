package dev.whyslow.bench.overhead;

import static dev.whyslow.bench.MedianInterval.median;

import dev.whyslow.bench.AgentOption;
import dev.whyslow.bench.BuiltJars;
import dev.whyslow.bench.MedianInterval;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Whole-process overhead with both JVMs alive at once, taking turns: a JVM with the agent and one
 * without each warm a workload from {@code examples} up, then run its measured rounds in blocks,
 * one JVM's block after the other's, in the order A B B A A B … so that a drift within a pair hits
 * both alike. {@link ProcessOverheadBenchmark} runs the two JVMs minutes apart, and on a host whose
 * speed moves by a fifth from one minute to the next (bench/README.md) its pairs read ±20 %
 * whatever the agent costs; here the two JVMs' blocks are some 100 ms apart. Only one JVM computes
 * at a time, the other waiting on its standard input with its JIT and agent threads free to run, as
 * they are in a process of its own.
 *
 * <p>Each pair of JVMs gives one ratio, its with-agent blocks' total over its without-agent
 * blocks'; the result is the median of the pair ratios with its interval, since C2 compiles the
 * instrumented code a little differently in every JVM. Checksums are compared block by block.
 *
 * <p>Usage: {@code LockstepOverheadBenchmark <agent.jar> <examples.jar> [pairs=10] [warmup=60]
 * [blocks=30] [roundsPerBlock=10] [agentArgs]}; {@code -Dbench.workload=...} as in {@link
 * ProcessOverheadBenchmark}; {@code -Dbench.baseline=<other agent.jar>} puts that agent, with the
 * same arguments or {@code -Dbench.baselineArgs}, in the arm without, to compare two versions or
 * two configurations; {@code -Dbench.agentJvm="<options>"} adds JVM options to the arm with the
 * agent only. {@code noop}, for either agent jar, is {@link NoopAgent}: a {@code -javaagent} that
 * does nothing, to tell what a JVM pays for any agent from what ours adds.
 */
public final class LockstepOverheadBenchmark {
  private LockstepOverheadBenchmark() {}

  public static void main(String[] args) throws Exception {
    if (args.length > 0) {
      args = args.clone();
      args[0] = NoopAgentJar.resolve(args[0]);
    }
    BuiltJars jars =
        BuiltJars.fromArgs(
            args,
            "usage: LockstepOverheadBenchmark <agent.jar|noop> <examples.jar> [pairs] [warmup] [blocks]"
                + " [roundsPerBlock] [agentArgs]");
    Path agentJar = jars.agent();
    Path examplesJar = jars.examples();
    int pairs = args.length > 2 ? Integer.parseInt(args[2]) : 10;
    String warmup = args.length > 3 ? args[3] : "60";
    int blocks = args.length > 4 ? Integer.parseInt(args[4]) : 30;
    String perBlock = args.length > 5 ? args[5] : "10";
    String agentArgs =
        args.length > 6
            ? args[6]
            : "service=overhead-bench,include=dev.whyslow.examples.cpu,sampling.rate=0.0001";
    String workload = System.getProperty("bench.workload", "dev.whyslow.examples.cpu.CpuWorkload");
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    List<String> plain =
        List.of(
            java,
            "-Xms512m",
            "-Xmx512m",
            "-cp",
            examplesJar.toString(),
            "dev.whyslow.examples.lockstep.LockstepRounds",
            workload,
            warmup,
            perBlock);
    List<String> withAgent = new ArrayList<>(plain);
    withAgent.add(1, AgentOption.of(agentJar, agentArgs));
    String agentJvmOptions = System.getProperty("bench.agentJvm", "").strip();
    if (!agentJvmOptions.isEmpty()) {
      // JVM options for the arm with the agent only, to tell what the JIT makes of its code.
      withAgent.addAll(1, List.of(agentJvmOptions.split("\\s+")));
      System.out.println("JVM options of the arm with the agent: " + agentJvmOptions);
    }
    String baselineJar = System.getProperty("bench.baseline");
    if (baselineJar != null) {
      baselineJar = NoopAgentJar.resolve(baselineJar);
    }
    if (baselineJar == null && System.getProperty("bench.baselineArgs") != null) {
      System.err.println(
          "LockstepOverheadBenchmark: -Dbench.baselineArgs needs -Dbench.baseline=<agent.jar> (the"
              + " same jar as the arm with the agent, to compare two configurations)");
      System.exit(2);
    }
    if (baselineJar != null) {
      // Another version of the agent in the arm "without", with the same arguments or its own.
      String baselineArgs = System.getProperty("bench.baselineArgs", agentArgs);
      plain = new ArrayList<>(plain);
      plain.add(1, AgentOption.of(baselineJar, baselineArgs));
      System.out.println(
          "baseline: the agent " + baselineJar + "=" + baselineArgs + " in the arm without");
    }

    List<Double> pairRatios = new ArrayList<>();
    List<Double> blockRatios = new ArrayList<>();
    for (int pair = 0; pair < pairs; pair++) {
      boolean agentFirst = pair % 2 == 0;
      // Warmed up one after the other, so that neither's JIT competes with the other's warm-up.
      try (LockstepProcess first = LockstepProcess.start(agentFirst ? withAgent : plain);
          LockstepProcess second = LockstepProcess.start(agentFirst ? plain : withAgent)) {
        LockstepProcess agent = agentFirst ? first : second;
        LockstepProcess none = agentFirst ? second : first;
        long agentNanos = 0;
        long noneNanos = 0;
        for (int b = 0; b < blocks; b++) {
          boolean agentTurnFirst = (b % 2 == 0) == agentFirst;
          LockstepProcess.Block x = (agentTurnFirst ? agent : none).block();
          LockstepProcess.Block y = (agentTurnFirst ? none : agent).block();
          LockstepProcess.Block a = agentTurnFirst ? x : y;
          LockstepProcess.Block n = agentTurnFirst ? y : x;
          if (a.checksum() != n.checksum()) {
            throw new IllegalStateException(
                "checksum differs in block " + b + ": " + a.checksum() + " vs " + n.checksum());
          }
          agentNanos += a.nanos();
          noneNanos += n.nanos();
          blockRatios.add((double) a.nanos() / n.nanos());
        }
        double ratio = (double) agentNanos / noneNanos;
        pairRatios.add(ratio);
        System.out.printf(
            "pair %2d  without %8.1f ms  with %8.1f ms  ratio %.4f (%+.2f %%)%n",
            pair + 1, noneNanos / 1e6, agentNanos / 1e6, ratio, (ratio - 1) * 100);
      }
    }
    double pairMedian = median(pairRatios);
    System.out.printf(
        "%nmedian of pair ratios %.4f (%+.2f %%); 95 %% interval for it %s%n",
        pairMedian, (pairMedian - 1) * 100, MedianInterval.of(pairRatios, 0.95).asOverhead(pairs));
    printByStartOrder(pairRatios);
    double blockMedian = median(blockRatios);
    System.out.printf(
        "median of %d block ratios %.4f (%+.2f %%)%n",
        blockRatios.size(), blockMedian, (blockMedian - 1) * 100);
  }

  /**
   * The pair ratios split by which JVM of the pair started and warmed up first (the agent's in odd
   * pairs), and their balanced figure: each agent-first pair's ratio with the next pair's, by their
   * geometric mean. On the AMD host (2026-12-06) the JVM started first read 3 to 5 points slower,
   * whichever it was (a no-op agent's too), so agent-first pairs sat 5 to 8 points above the others
   * and the median of all pairs fell anywhere in the gap; the balanced figure cancels a start-order
   * effect whichever arm it favours.
   */
  private static void printByStartOrder(List<Double> pairRatios) {
    List<Double> agentFirst = new ArrayList<>();
    List<Double> plainFirst = new ArrayList<>();
    List<Double> balanced = new ArrayList<>();
    for (int i = 0; i < pairRatios.size(); i++) {
      (i % 2 == 0 ? agentFirst : plainFirst).add(pairRatios.get(i));
      if (i % 2 == 1) {
        balanced.add(Math.sqrt(pairRatios.get(i - 1) * pairRatios.get(i)));
      }
    }
    if (balanced.isEmpty()) {
      return;
    }
    System.out.printf(
        "by start order: agent's JVM first %+.2f %% (median of %d), second %+.2f %% (median of %d)%n",
        (median(agentFirst) - 1) * 100,
        agentFirst.size(),
        (median(plainFirst) - 1) * 100,
        plainFirst.size());
    double balancedMedian = median(balanced);
    System.out.printf(
        "balanced over start order: median of %d pairs of pairs %+.2f %%; 95 %% interval for it %s%n",
        balanced.size(),
        (balancedMedian - 1) * 100,
        MedianInterval.of(balanced, 0.95).asOverhead(balanced.size()));
  }
}
