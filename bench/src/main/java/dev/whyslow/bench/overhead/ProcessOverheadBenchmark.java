package dev.whyslow.bench.overhead;

import static dev.whyslow.bench.MedianInterval.median;

import dev.whyslow.bench.AgentOption;
import dev.whyslow.bench.BuiltJars;
import dev.whyslow.bench.MedianInterval;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Whole-process overhead: runs the CPU-bound {@code CpuWorkload} from {@code examples} with and
 * without the agent, interleaved (A B A B …) so drift in the machine hits both alike, and reports
 * the median elapsed time of each and their ratio. The workload times only its measured rounds,
 * after its own warm-up, so JVM start-up and instrumentation time are reported apart (as wall time
 * per process).
 *
 * <p>Usage: {@code ProcessOverheadBenchmark <agent.jar> <examples.jar> [pairs=10] [warmup=60]
 * [rounds=150] [agentArgs]}; {@code -Dbench.workload=dev.whyslow.examples.cpu.OrderWorkload} runs
 * the service-shaped workload instead of the numeric kernels.
 */
public final class ProcessOverheadBenchmark {
  private ProcessOverheadBenchmark() {}

  public static void main(String[] args) throws Exception {
    BuiltJars jars =
        BuiltJars.fromArgs(
            args,
            "usage: ProcessOverheadBenchmark <agent.jar> <examples.jar> [pairs] [warmup] [rounds]"
                + " [agentArgs]");
    Path agentJar = jars.agent();
    Path examplesJar = jars.examples();
    int pairs = args.length > 2 ? Integer.parseInt(args[2]) : 10;
    String warmup = args.length > 3 ? args[3] : "60";
    String rounds = args.length > 4 ? args[4] : "150";
    String agentArgs =
        args.length > 5
            ? args[5]
            : "service=overhead-bench,include=dev.whyslow.examples.cpu,sampling.rate=0.0001";
    String workload = System.getProperty("bench.workload", "dev.whyslow.examples.cpu.CpuWorkload");
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();

    List<Double> without = new ArrayList<>();
    List<Double> with = new ArrayList<>();
    List<Double> wallWithout = new ArrayList<>();
    List<Double> wallWith = new ArrayList<>();
    String expectedChecksum = null;
    for (int i = 0; i < pairs; i++) {
      for (boolean agent : new boolean[] {i % 2 == 0, i % 2 != 0}) {
        List<String> command = new ArrayList<>();
        command.add(java);
        command.add("-Xms512m");
        command.add("-Xmx512m");
        if (agent) {
          command.add(AgentOption.of(agentJar, agentArgs));
        }
        command.addAll(List.of("-cp", examplesJar.toString(), workload, warmup, rounds));
        long wallStart = System.nanoTime();
        WorkloadProcess result = WorkloadProcess.run(command);
        double wallMs = (System.nanoTime() - wallStart) / 1e6;
        if (expectedChecksum == null) {
          expectedChecksum = result.checksum();
        } else if (!expectedChecksum.equals(result.checksum())) {
          throw new IllegalStateException(
              "checksum differs with agent="
                  + agent
                  + ": "
                  + result.checksum()
                  + " vs "
                  + expectedChecksum);
        }
        double ms = result.elapsedMs();
        (agent ? with : without).add(ms);
        (agent ? wallWith : wallWithout).add(wallMs);
        System.out.printf(
            "pair %2d %-13s measured %8.1f ms   process wall %8.1f ms%n",
            i + 1, agent ? "with agent" : "without agent", ms, wallMs);
      }
    }
    double medianWithout = median(without);
    double medianWith = median(with);
    System.out.printf(
        "%nmedian measured: without %.1f ms, with %.1f ms, ratio %.4f (%+.2f %%)%n",
        medianWithout,
        medianWith,
        medianWith / medianWithout,
        (medianWith / medianWithout - 1) * 100);
    // Each pair ran back to back, so its ratio cancels drift that the two medians above do not.
    List<Double> pairRatios = new ArrayList<>();
    for (int i = 0; i < pairs; i++) {
      pairRatios.add(with.get(i) / without.get(i));
    }
    double pairMedian = median(pairRatios);
    System.out.printf(
        "median of pair ratios %.4f (%+.2f %%); 95 %% interval for it %s%n",
        pairMedian, (pairMedian - 1) * 100, MedianInterval.of(pairRatios, 0.95).asOverhead(pairs));
    System.out.printf(
        "median process wall (start-up and instrumentation included): without %.1f ms,"
            + " with %.1f ms, ratio %.4f%n",
        median(wallWithout), median(wallWith), median(wallWith) / median(wallWithout));
  }
}
