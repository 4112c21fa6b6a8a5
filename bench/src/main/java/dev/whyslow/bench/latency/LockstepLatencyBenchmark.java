package dev.whyslow.bench.latency;

import dev.whyslow.bench.BuiltJars;
import dev.whyslow.daemon.RunningDaemon;
import dev.whyslow.daemon.Whyslowd;
import dev.whyslow.daemon.config.DaemonConfig;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;

/**
 * The shop's tail latency with and without the agent, both shops alive at once and loaded in turn:
 * after each has been warmed up under load, one load generator JVM sends segments of the same
 * fixed-rate load to one shop, then the other, in the order A B B A A B …, the k-th segment of
 * either shop with the same requests. {@link ServiceLatencyBenchmark} runs the two shops minutes
 * apart, and on this kind of host the p99 of two runs of the same code differed by more than the
 * agent could cost; here the two shops' segments are seconds apart, so the host's drift falls on
 * both alike. Each pair of shops gives the p99 of all its with-agent segments' latencies over that
 * of its without-agent segments', and the same for the shop's CPU per segment, read from the
 * operating system before and after each, in all and by kind of thread ({@link ThreadCpu}).
 *
 * <p>Usage: {@code LockstepLatencyBenchmark <agent.jar> <examples.jar> [pairs=3] [rate=200]
 * [warmup=120s] [segment=10s] [segments=12] [agentArgs]}, segments per shop; {@code
 * -Dbench.pin=<shop CPUs>/<other CPUs>} as in {@link ServiceLatencyBenchmark} (both shops on the
 * shop CPUs); {@code -Dbench.baseline=<other agent.jar>} puts that agent, with the same arguments,
 * in the shop "without", to compare two versions; {@code -Dbench.idle=<rate>} keeps the shop whose
 * turn it is not under a trickle of that many requests per second, unmeasured (by default it gets
 * none; 16 pairs showed no difference the trickle makes, see bench/LATENCY.md). The agents report
 * to a whyslowd in this JVM.
 */
public final class LockstepLatencyBenchmark {
  private LockstepLatencyBenchmark() {}

  public static void main(String[] args) throws Exception {
    BuiltJars jars =
        BuiltJars.fromArgs(
            args,
            "usage: LockstepLatencyBenchmark <agent.jar> <examples.jar> [pairs] [rate] [warmup]"
                + " [segment] [segments] [agentArgs]");
    Path agentJar = jars.agent();
    Path examplesJar = jars.examples();
    int pairs = args.length > 2 ? Integer.parseInt(args[2]) : 3;
    String rate = args.length > 3 ? args[3] : "200";
    Duration warmup = ServiceLatencyBenchmark.parseDuration(args.length > 4 ? args[4] : "120s");
    Duration segment = ServiceLatencyBenchmark.parseDuration(args.length > 5 ? args[5] : "10s");
    int segments = args.length > 6 ? Integer.parseInt(args[6]) : 12;
    String agentArgs = args.length > 7 ? args[7] : ServiceLatencyBenchmark.DEFAULT_AGENT_ARGS;
    CpuPinning pinning = CpuPinning.parse(System.getProperty("bench.pin", ""));
    pinning.pinThisProcess();
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    // Another version of the agent, with the same arguments, in the arm "without".
    String baseline = System.getProperty("bench.baseline");
    Path baselineJar = baseline == null ? null : Path.of(baseline);
    String idleRate = idleRate(System.getProperty("bench.idle"));
    if (baselineJar != null && !Files.isRegularFile(baselineJar)) {
      System.err.println("-Dbench.baseline=" + baseline + ": no such agent jar");
      System.exit(2);
    }

    Path data = Files.createTempDirectory("whyslow-lockstep-latency");
    try (RunningDaemon daemon =
        Whyslowd.start(
            DaemonConfig.defaults()
                .with("data.dir", data.toString())
                .with("agent.bind", "127.0.0.1:0")
                .with("http.bind", "127.0.0.1:0"))) {
      String fullAgentArgs = agentArgs + ",daemon=127.0.0.1:" + daemon.agentPort();
      System.out.printf(
          Locale.ROOT,
          "rate %s/s, warm-up %s per shop, %d segments of %s per shop, %d pairs%s; agent: %s%n%n",
          rate,
          warmup,
          segments,
          segment,
          pairs,
          pinning.describe(),
          agentArgs);
      if (baselineJar != null) {
        System.out.println("baseline: the agent " + baselineJar + " in the arm without\n");
      }
      if (idleRate != null) {
        System.out.println("the shop whose turn it is not gets " + idleRate + " requests/s\n");
      }
      PairFigures figures = new PairFigures();
      for (int pair = 0; pair < pairs; pair++) {
        boolean agentFirst = pair % 2 == 0;
        try (ShopProcess first =
                ShopProcess.start(
                    java,
                    examplesJar,
                    pinning,
                    agentFirst ? agentJar : baselineJar,
                    fullAgentArgs);
            ShopProcess second =
                ShopProcess.start(
                    java,
                    examplesJar,
                    pinning,
                    agentFirst ? baselineJar : agentJar,
                    fullAgentArgs);
            SegmentLoad load = SegmentLoad.start(java, examplesJar, idleRate)) {
          ShopProcess agent = agentFirst ? first : second;
          ShopProcess none = agentFirst ? second : first;
          // Warmed up one after the other, so that neither's JIT competes with the other's load.
          load.warmup(first, second, rate, warmup);
          load.warmup(second, first, rate, warmup);
          for (int s = 0; s < segments; s++) {
            boolean agentTurnFirst = (s % 2 == 0) == agentFirst;
            for (ShopProcess shop : agentTurnFirst ? List.of(agent, none) : List.of(none, agent)) {
              load.measure(shop, shop == agent ? none : agent, rate, segment, s);
            }
          }
          figures.add(agent, none);
        }
      }
      figures.printSummary();
    } finally {
      ServiceLatencyBenchmark.deleteTree(data);
    }
  }

  /** The trickle's rate as the load generator takes it, or null for none. */
  private static String idleRate(String property) {
    if (property == null || property.isBlank()) {
      return null;
    }
    double rate;
    try {
      rate = Double.parseDouble(property.trim());
    } catch (NumberFormatException e) {
      rate = Double.NaN;
    }
    if (!(rate >= 0.01 && rate <= 10_000)) {
      System.err.println(
          "-Dbench.idle=" + property + ": expected requests per second, 0.01 to 10000");
      System.exit(2);
    }
    return String.valueOf(rate);
  }
}
