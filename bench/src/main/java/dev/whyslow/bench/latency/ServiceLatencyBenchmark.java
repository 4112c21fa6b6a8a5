package dev.whyslow.bench.latency;

import static dev.whyslow.bench.MedianInterval.median;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.whyslow.bench.MedianInterval;
import dev.whyslow.daemon.RunningDaemon;
import dev.whyslow.daemon.Whyslowd;
import dev.whyslow.daemon.config.DaemonConfig;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The agent's cost in tail latency: the example shop ({@code ShopService}) in fresh JVMs without
 * and with the agent (guards and units on, predicates at 1/10000, reporting to a running whyslowd),
 * interleaved in pairs (A B, B A, ...) so drift in the machine hits both sides alike, each under
 * the same fixed-rate open-model load ({@code LoadGenerator} in its own JVM, bug share 0). Reports
 * each run's p50, p99 and p99.9, each pair's p99 ratio, and the median of those ratios (the budget
 * is ≤ 2 % added p99, DESIGN §11).
 *
 * <p>Usage: {@code ServiceLatencyBenchmark <agent.jar> <examples.jar> [pairs=5] [rate=200]
 * [warmup=60s] [duration=120s] [agentArgs]}.
 */
public final class ServiceLatencyBenchmark {
  static final String DEFAULT_AGENT_ARGS =
      "service=latency-bench,include=dev.whyslow.examples.shop,sampling.rate=0.0001,units=on";
  static final String MIX = "search=50,product=30,cart=15,checkout=5";
  private static final Pattern LISTENING = Pattern.compile("shop listening on (\\d+)");

  /** One measured run: the overall latency percentiles in milliseconds. */
  record Run(boolean agent, double p50Ms, double p99Ms, double p999Ms, long sent, long errors) {}

  private ServiceLatencyBenchmark() {}

  public static void main(String[] args) throws Exception {
    if (args.length < 2) {
      System.err.println(
          "usage: ServiceLatencyBenchmark <agent.jar> <examples.jar> [pairs=5] [rate=200]"
              + " [warmup=60s] [duration=120s] [agentArgs]");
      System.exit(2);
    }
    Path agentJar = Path.of(args[0]);
    Path examplesJar = Path.of(args[1]);
    for (Path p : List.of(agentJar, examplesJar)) {
      if (!Files.isRegularFile(p)) {
        System.err.println(p + " does not exist: build first with mvn -DskipTests package");
        System.exit(2);
      }
    }
    int pairs = args.length > 2 ? Integer.parseInt(args[2]) : 5;
    String rate = args.length > 3 ? args[3] : "200";
    String warmup = args.length > 4 ? args[4] : "60s";
    String duration = args.length > 5 ? args[5] : "120s";
    String agentArgs = args.length > 6 ? args[6] : DEFAULT_AGENT_ARGS;

    Path data = Files.createTempDirectory("whyslow-latency-bench");
    try (RunningDaemon daemon =
        Whyslowd.start(
            DaemonConfig.defaults()
                .with("data.dir", data.toString())
                .with("agent.bind", "127.0.0.1:0")
                .with("http.bind", "127.0.0.1:0"))) {
      String fullAgentArgs = agentArgs + ",daemon=127.0.0.1:" + daemon.agentPort();
      System.out.printf(
          Locale.ROOT,
          "%s%nrate %s/s, mix %s, warm-up %s, measured %s, %d pairs; agent: %s%n%n",
          machine(),
          rate,
          MIX,
          warmup,
          duration,
          pairs,
          agentArgs);
      List<Double> ratios = new ArrayList<>();
      List<Double> p99Without = new ArrayList<>();
      List<Double> p99With = new ArrayList<>();
      for (int i = 0; i < pairs; i++) {
        Run without = null;
        Run with = null;
        for (boolean agent : new boolean[] {i % 2 == 0, i % 2 != 0}) {
          Run run =
              measure(agent ? fullAgentArgs : null, examplesJar, agentJar, rate, warmup, duration);
          System.out.printf(
              Locale.ROOT,
              "pair %2d %-13s p50 %7.2f ms  p99 %7.2f ms  p99.9 %7.2f ms  (%d sent, %d errors)%n",
              i + 1,
              agent ? "with agent" : "without agent",
              run.p50Ms(),
              run.p99Ms(),
              run.p999Ms(),
              run.sent(),
              run.errors());
          if (agent) {
            with = run;
          } else {
            without = run;
          }
        }
        ratios.add(with.p99Ms() / without.p99Ms());
        p99Without.add(without.p99Ms());
        p99With.add(with.p99Ms());
        System.out.printf(Locale.ROOT, "pair %2d p99 ratio %.4f%n", i + 1, ratios.get(i));
      }
      double median = median(ratios);
      System.out.printf(
          Locale.ROOT,
          "%nmedian p99: without %.2f ms, with %.2f ms; median of pair ratios %.4f (%+.2f %%)%n"
              + "95 %% interval for it %s%n",
          median(p99Without),
          median(p99With),
          median,
          (median - 1) * 100,
          MedianInterval.of(ratios, 0.95).asOverhead(ratios.size()));
    } finally {
      deleteTree(data);
    }
  }

  private static void deleteTree(Path root) throws IOException {
    try (var paths = Files.walk(root)) {
      for (Path p : paths.sorted(Collections.reverseOrder()).toList()) {
        Files.deleteIfExists(p);
      }
    }
  }

  private static Run measure(
      String agentArgs,
      Path examplesJar,
      Path agentJar,
      String rate,
      String warmup,
      String duration)
      throws IOException, InterruptedException {
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    List<String> shopCommand = new ArrayList<>(List.of(java, "-Xms512m", "-Xmx512m"));
    if (agentArgs != null) {
      shopCommand.add("-javaagent:" + agentJar + "=" + agentArgs);
    }
    shopCommand.addAll(
        List.of(
            "-cp",
            examplesJar.toString(),
            "dev.whyslow.examples.shop.ShopService",
            "--port",
            "0",
            "--threads",
            "4"));
    Process shop = new ProcessBuilder(shopCommand).redirectErrorStream(true).start();
    try {
      int port = awaitPort(shop);
      Process load =
          new ProcessBuilder(
                  java,
                  "-Xmx256m",
                  "-cp",
                  examplesJar.toString(),
                  "dev.whyslow.examples.shop.LoadGenerator",
                  "--url",
                  "http://127.0.0.1:" + port,
                  "--rate",
                  rate,
                  "--warmup",
                  warmup,
                  "--duration",
                  duration,
                  "--mix",
                  MIX,
                  "--bug-share",
                  "0",
                  "--json")
              .redirectError(ProcessBuilder.Redirect.INHERIT)
              .start();
      String json = new String(load.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      if (!load.waitFor(1, TimeUnit.HOURS) || load.exitValue() != 0) {
        throw new IllegalStateException("load generator failed: " + json);
      }
      JsonNode overall = new ObjectMapper().readTree(json).path("overall");
      return new Run(
          agentArgs != null,
          overall.path("p50Ms").asDouble(),
          overall.path("p99Ms").asDouble(),
          overall.path("p999Ms").asDouble(),
          overall.path("sent").asLong(),
          overall.path("errors").asLong());
    } finally {
      shop.destroy();
      if (!shop.waitFor(10, TimeUnit.SECONDS)) {
        shop.destroyForcibly();
      }
    }
  }

  /** Reads the shop's output until it prints its port; the rest of its output is drained unread. */
  private static int awaitPort(Process shop) throws IOException {
    BufferedReader reader =
        new BufferedReader(new InputStreamReader(shop.getInputStream(), StandardCharsets.UTF_8));
    StringBuilder seen = new StringBuilder();
    for (String line; (line = reader.readLine()) != null; ) {
      seen.append(line).append('\n');
      Matcher m = LISTENING.matcher(line);
      if (m.find()) {
        Thread drain =
            new Thread(
                () -> {
                  try {
                    reader.transferTo(java.io.Writer.nullWriter());
                  } catch (IOException e) {
                    // the shop is gone
                  }
                },
                "shop-output");
        drain.setDaemon(true);
        drain.start();
        return Integer.parseInt(m.group(1));
      }
    }
    throw new IllegalStateException("the shop exited before listening:\n" + seen);
  }

  private static String machine() {
    return String.format(
        Locale.ROOT,
        "machine: %d CPUs, %s %s, Java %s (%s), load average %.2f",
        Runtime.getRuntime().availableProcessors(),
        System.getProperty("os.name"),
        System.getProperty("os.arch"),
        System.getProperty("java.version"),
        System.getProperty("java.vm.name"),
        java.lang.management.ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage());
  }
}
