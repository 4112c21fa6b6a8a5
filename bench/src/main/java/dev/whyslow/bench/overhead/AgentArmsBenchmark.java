package dev.whyslow.bench.overhead;

import static dev.whyslow.bench.MedianInterval.median;

import dev.whyslow.bench.MedianInterval;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;

/**
 * Variants of the agent in one rotation: each round runs the workload without the agent and once
 * per arm (another agent jar, other agent arguments, a JVM option), in a shuffled order, so the
 * machine's drift hits every arm alike. Each arm is reported as the median of its ratio to the run
 * without the agent in the same round, and every two arms against each other. Two variants cannot
 * be told apart by two {@link ProcessOverheadBenchmark} runs on this machine: one run of 40 pairs
 * moves by three or four points from the next, as much as the budget.
 *
 * <p>Usage: {@code AgentArmsBenchmark <examples.jar> <rounds> <warmup> <measured> <arm>...}, each
 * arm {@code name=JVM options} (space-separated, the {@code -javaagent} option among them); {@code
 * -Dbench.workload} as for {@link ProcessOverheadBenchmark}, {@code -Dbench.seed} to repeat an
 * order.
 */
public final class AgentArmsBenchmark {
  private AgentArmsBenchmark() {}

  public static void main(String[] args) throws Exception {
    if (args.length < 5) {
      System.err.println(
          "usage: AgentArmsBenchmark <examples.jar> <rounds> <warmup> <measured>"
              + " <name=JVM options>...");
      System.exit(2);
    }
    Path examplesJar = Path.of(args[0]);
    if (!Files.isRegularFile(examplesJar)) {
      System.err.println(examplesJar + " does not exist: build first with mvn -DskipTests package");
      System.exit(2);
    }
    int rounds;
    List<AgentArm> arms;
    try {
      rounds = rounds(args[1]);
      arms = arms(args);
    } catch (IllegalArgumentException e) {
      System.err.println("AgentArmsBenchmark: " + e.getMessage());
      System.exit(2);
      return;
    }
    long seed = Long.getLong("bench.seed", System.nanoTime());
    String workload = System.getProperty("bench.workload", "dev.whyslow.examples.cpu.CpuWorkload");
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    System.out.printf(
        "%s, %d rounds, order seed %d (-Dbench.seed to repeat it)%n", workload, rounds, seed);

    Random order = new Random(seed);
    Map<String, List<Double>> measured = new LinkedHashMap<>();
    arms.forEach(arm -> measured.put(arm.name(), new ArrayList<>()));
    String expectedChecksum = null;
    for (int round = 1; round <= rounds; round++) {
      List<AgentArm> shuffled = new ArrayList<>(arms);
      Collections.shuffle(shuffled, order);
      Map<String, Double> thisRound = new LinkedHashMap<>();
      for (AgentArm arm : shuffled) {
        List<String> command = new ArrayList<>(List.of(java, "-Xms512m", "-Xmx512m"));
        command.addAll(arm.jvmOptions());
        command.addAll(List.of("-cp", examplesJar.toString(), workload, args[2], args[3]));
        WorkloadProcess result = WorkloadProcess.run(command);
        if (expectedChecksum == null) {
          expectedChecksum = result.checksum();
        } else if (!expectedChecksum.equals(result.checksum())) {
          throw new IllegalStateException(
              "checksum differs in arm "
                  + arm.name()
                  + ": "
                  + result.checksum()
                  + " vs "
                  + expectedChecksum);
        }
        thisRound.put(arm.name(), result.elapsedMs());
      }
      StringBuilder line = new StringBuilder(String.format("round %3d", round));
      for (AgentArm arm : arms) {
        double ms = thisRound.get(arm.name());
        measured.get(arm.name()).add(ms);
        line.append(String.format("  %s %8.1f", arm.name(), ms));
      }
      System.out.println(line.append(" ms"));
    }

    System.out.println();
    List<String> armNames = new ArrayList<>(measured.keySet());
    for (int a = 1; a < armNames.size(); a++) {
      report(armNames.get(a), AgentArm.WITHOUT, measured, rounds);
    }
    for (int a = 1; a < armNames.size(); a++) {
      for (int b = a + 1; b < armNames.size(); b++) {
        report(armNames.get(b), armNames.get(a), measured, rounds);
      }
    }
  }

  private static int rounds(String text) {
    try {
      int rounds = Integer.parseInt(text);
      if (rounds >= 1) {
        return rounds;
      }
    } catch (NumberFormatException e) {
      // said below
    }
    throw new IllegalArgumentException("rounds is a whole number from 1; got '" + text + "'");
  }

  /** The run without the agent, then the arms named from the fifth argument on. */
  private static List<AgentArm> arms(String[] args) {
    List<AgentArm> arms = new ArrayList<>();
    arms.add(new AgentArm(AgentArm.WITHOUT, List.of()));
    Set<String> names = new HashSet<>();
    for (int i = 4; i < args.length; i++) {
      AgentArm arm = AgentArm.parse(args[i]);
      if (!names.add(arm.name())) {
        throw new IllegalArgumentException("two arms are named " + arm.name());
      }
      arms.add(arm);
    }
    return arms;
  }

  /** The median of {@code arm}'s ratio to {@code base} round by round, with its interval. */
  private static void report(
      String arm, String base, Map<String, List<Double>> measured, int rounds) {
    List<Double> ratios = new ArrayList<>();
    for (int i = 0; i < rounds; i++) {
      ratios.add(measured.get(arm).get(i) / measured.get(base).get(i));
    }
    double m = median(ratios);
    System.out.printf(
        "%s against %s: median ratio %.4f (%+.2f %%); 95 %% interval %s%n",
        arm, base, m, (m - 1) * 100, MedianInterval.of(ratios, 0.95).asOverhead(rounds));
  }
}
