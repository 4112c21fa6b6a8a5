package dev.whyslow.bench.latency;

import dev.whyslow.bench.BuiltJars;
import dev.whyslow.daemon.RunningDaemon;
import dev.whyslow.daemon.Whyslowd;
import dev.whyslow.daemon.config.DaemonConfig;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Locale;

/**
 * The shop's CPU per request, and its latency, with and without the agent, both shops loaded at the
 * same time: two load generator JVMs send each shop a fixed-rate load of the same mix and rate
 * (each its own draw of requests), warm-up and measured segments alike, so both shops run through
 * the same minutes of the host, side by side on the shop CPUs, with no turns. {@link
 * LockstepLatencyBenchmark} loads them in turn, and every turn makes both compile part of their
 * code again (bench/LATENCY.md); side by side, the shops' CPU per request is steady after the
 * warm-up, and two JVMs of the same code read within a few per cent of each other where lockstep
 * pairs spread over twenty.
 *
 * <p>What it gives up: the tail latency. The shops share their CPUs, so a request of either may
 * wait for the other's requests, and the slowest requests are the likeliest to: with both shops
 * pinned to one core at 200 requests/s each, the p99 ran from 5.5 to 19 ms across pairs where a
 * shop alone on that core has 5 to 6, and the two shops of a pair moved together
 * (bench/LATENCY.md). The p99 ratio here is the contention's more than the agent's; this benchmark
 * is for the CPU per request, which the sharing hardly touches, and {@link
 * LockstepLatencyBenchmark} stays the one for the p99.
 *
 * <p>Usage: {@code SideBySideLatencyBenchmark <agent.jar> <examples.jar> [pairs=4] [rate=200]
 * [warmup=300s] [segment=10s] [segments=12] [agentArgs]}; {@code -Dbench.pin=<shop CPUs>/<other
 * CPUs>} and {@code -Dbench.baseline=<other agent.jar>} as in {@link LockstepLatencyBenchmark}. The
 * agents report to a whyslowd in this JVM.
 */
public final class SideBySideLatencyBenchmark {
  /** Where the second shop's segments' seeds start, apart from the first shop's. */
  private static final int OTHER_SEEDS = 1_000_000;

  private SideBySideLatencyBenchmark() {}

  public static void main(String[] args) throws Exception {
    BuiltJars jars =
        BuiltJars.fromArgs(
            args,
            "usage: SideBySideLatencyBenchmark <agent.jar> <examples.jar> [pairs] [rate] [warmup]"
                + " [segment] [segments] [agentArgs]");
    Path agentJar = jars.agent();
    Path examplesJar = jars.examples();
    int pairs = args.length > 2 ? Integer.parseInt(args[2]) : 4;
    String rate = args.length > 3 ? args[3] : "200";
    Duration warmup = ServiceLatencyBenchmark.parseDuration(args.length > 4 ? args[4] : "300s");
    Duration segment = ServiceLatencyBenchmark.parseDuration(args.length > 5 ? args[5] : "10s");
    int segments = args.length > 6 ? Integer.parseInt(args[6]) : 12;
    String agentArgs = args.length > 7 ? args[7] : ServiceLatencyBenchmark.DEFAULT_AGENT_ARGS;
    CpuPinning pinning = CpuPinning.parse(System.getProperty("bench.pin", ""));
    pinning.pinThisProcess();
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    String baseline = System.getProperty("bench.baseline");
    Path baselineJar = baseline == null ? null : Path.of(baseline);
    if (baselineJar != null && !Files.isRegularFile(baselineJar)) {
      System.err.println("-Dbench.baseline=" + baseline + ": no such agent jar");
      System.exit(2);
    }

    Path data = Files.createTempDirectory("whyslow-side-by-side-latency");
    try (RunningDaemon daemon =
        Whyslowd.start(
            DaemonConfig.defaults()
                .with("data.dir", data.toString())
                .with("agent.bind", "127.0.0.1:0")
                .with("http.bind", "127.0.0.1:0"))) {
      String fullAgentArgs = agentArgs + ",daemon=127.0.0.1:" + daemon.agentPort();
      System.out.printf(
          Locale.ROOT,
          "rate %s/s per shop, both shops at once, warm-up %s, %d segments of %s, %d pairs%s;"
              + " agent: %s%n%n",
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
      PairFigures figures = new PairFigures();
      for (int pair = 0; pair < pairs; pair++) {
        // Which shop starts first, and gets its load first, alternates from pair to pair.
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
            SegmentLoad firstLoad = SegmentLoad.start(java, examplesJar, null);
            SegmentLoad secondLoad = SegmentLoad.start(java, examplesJar, null)) {
          // Each shop draws its own requests: with the same seeds both would get the same heavy
          // request at the same moment, and on a shared core each would then wait for the
          // other's, which made the p99 of both the time of the two together (the first run,
          // bench/LATENCY.md).
          firstLoad.startWarmup(first, null, rate, warmup, 1000);
          secondLoad.startWarmup(second, null, rate, warmup, 2000);
          firstLoad.awaitWarmup();
          secondLoad.awaitWarmup();
          for (int s = 0; s < segments; s++) {
            firstLoad.startMeasure(first, null, rate, segment, s);
            secondLoad.startMeasure(second, null, rate, segment, OTHER_SEEDS + s);
            firstLoad.awaitMeasure();
            secondLoad.awaitMeasure();
          }
          figures.add(agentFirst ? first : second, agentFirst ? second : first);
        }
      }
      figures.printSummary();
    } finally {
      ServiceLatencyBenchmark.deleteTree(data);
    }
  }
}
