package dev.whyslow.bench.latency;

import static dev.whyslow.bench.MedianInterval.median;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.whyslow.bench.AgentOption;
import dev.whyslow.bench.BuiltJars;
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
import java.time.Duration;
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
 * is ≤ 2 % added p99, DESIGN §11). Each run also reports the CPU the shop, the load generator and
 * the daemon used per second of the measured period ({@link CpuShares}), and the summary the median
 * pair ratio of the shop's CPU: on a small shared machine the p99 spreads too widely to resolve a
 * few per cent, and the CPU says what the agent costs when the p99 cannot.
 *
 * <p>Usage: {@code ServiceLatencyBenchmark <agent.jar> <examples.jar> [pairs=5] [rate=200]
 * [warmup=120s] [duration=120s] [agentArgs]}. The warm-up must outlast the agent's JIT warm-up,
 * which on two cores runs to about 100 s (bench/LATENCY.md), or the run measures that instead. With
 * {@code -Dbench.baseline=<a.jar>[,<b.jar>...]} each of those agent jars runs as one more arm in
 * the same rotation, and the report adds each agent against no agent and the agent against each
 * baseline: an A/B of agent versions that shares the hour's drift. With {@code -Dbench.pin=<shop
 * CPUs>/<other CPUs>}, e.g. {@code 1/0}, the shop runs on its own CPUs and this JVM (the daemon)
 * and the load generator on the others ({@link CpuPinning}), so that neither competes with the shop
 * for a core. On two cores that took their turns off the shop's core, but the p99 still spread too
 * widely to resolve a few per cent: the shop's own collector and JIT share its one core
 * (bench/LATENCY.md, "Pinned"). With {@code -Dbench.with.jvm="<options>"} the "with agent" arm's
 * shop JVM gets those options too (space-separated, each starting with {@code -}), so that a
 * baseline arm of the same jar tells what the options change.
 */
public final class ServiceLatencyBenchmark {
  static final String DEFAULT_AGENT_ARGS =
      "service=latency-bench,include=dev.whyslow.examples.shop,sampling.rate=0.0001,units=on";
  static final String MIX = "search=50,product=30,cart=15,checkout=5";
  private static final Pattern LISTENING = Pattern.compile("shop listening on (\\d+)");

  /**
   * One measured run: the overall latency percentiles in milliseconds, and the CPU seconds per
   * second that the shop, the load generator and this JVM (the daemon) used in the measured period.
   */
  record Run(
      boolean agent,
      double p50Ms,
      double p99Ms,
      double p999Ms,
      long sent,
      long errors,
      CpuShares cpu) {}

  private ServiceLatencyBenchmark() {}

  public static void main(String[] args) throws Exception {
    BuiltJars jars =
        BuiltJars.fromArgs(
            args,
            "usage: ServiceLatencyBenchmark <agent.jar> <examples.jar> [pairs=5] [rate=200]"
                + " [warmup=120s] [duration=120s] [agentArgs]");
    Path agentJar = jars.agent();
    Path examplesJar = jars.examples();
    int pairs = args.length > 2 ? Integer.parseInt(args[2]) : 5;
    String rate = args.length > 3 ? args[3] : "200";
    String warmup = args.length > 4 ? args[4] : "120s";
    String duration = args.length > 5 ? args[5] : "120s";
    try {
      loadWindow(warmup, duration);
    } catch (RuntimeException e) {
      System.err.println(
          "warm-up and measured period must be durations such as 120s or 2m, the period longer"
              + " than 2 s; got '"
              + warmup
              + "' and '"
              + duration
              + "'");
      System.exit(2);
    }
    String agentArgs = args.length > 6 ? args[6] : DEFAULT_AGENT_ARGS;
    String machine = machine(); // before pinning, which narrows what the JVM sees
    CpuPinning pinning;
    try {
      pinning = CpuPinning.parse(System.getProperty("bench.pin", ""));
      pinning.pinThisProcess();
    } catch (IllegalArgumentException | IOException e) {
      System.err.println("-Dbench.pin: " + e.getMessage());
      System.exit(2);
      return;
    }
    List<Path> baselineJars = new ArrayList<>();
    for (String jar : System.getProperty("bench.baseline", "").split(",")) {
      if (jar.isBlank()) {
        continue;
      }
      baselineJars.add(Path.of(jar.trim()));
      if (!Files.isRegularFile(baselineJars.get(baselineJars.size() - 1))) {
        System.err.println("-Dbench.baseline: " + jar + " is not a file: give agent jars");
        System.exit(2);
      }
    }

    List<String> withJvm = new ArrayList<>();
    for (String option : System.getProperty("bench.with.jvm", "").trim().split("\\s+")) {
      if (option.isEmpty()) {
        continue;
      }
      if (!option.startsWith("-")) {
        System.err.println(
            "-Dbench.with.jvm: '" + option + "' is not a JVM option: give options such as -Xss2m");
        System.exit(2);
      }
      withJvm.add(option);
    }

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
          "%s%s%nrate %s/s, mix %s, warm-up %s, measured %s, %d pairs; agent: %s%s%n%n",
          machine,
          pinning.describe(),
          rate,
          MIX,
          warmup,
          duration,
          pairs,
          agentArgs,
          (baselineJars.isEmpty() ? "" : "; baseline agents " + baselineJars)
              + (withJvm.isEmpty() ? "" : "; with agent also " + withJvm));
      List<Arm> arms = new ArrayList<>();
      arms.add(new Arm("without agent", null, null, List.of()));
      for (int b = 0; b < baselineJars.size(); b++) {
        arms.add(new Arm("baseline " + (b + 1), baselineJars.get(b), fullAgentArgs, List.of()));
      }
      arms.add(new Arm("with agent", agentJar, fullAgentArgs, withJvm));
      for (int i = 0; i < pairs; i++) {
        // Each round starts one arm later than the one before, so no arm always runs first.
        for (int j = 0; j < arms.size(); j++) {
          Arm arm = arms.get((i + j) % arms.size());
          Run run =
              measure(
                  arm.agentArgs(),
                  arm.jvmOptions(),
                  examplesJar,
                  arm.jar(),
                  rate,
                  warmup,
                  duration,
                  pinning);
          arm.runs().add(run);
          System.out.printf(
              Locale.ROOT,
              "pair %2d %-14s p50 %7.2f ms  p99 %7.2f ms  p99.9 %7.2f ms  (%d sent, %d errors)"
                  + "  %s%n",
              i + 1,
              arm.name(),
              run.p50Ms(),
              run.p99Ms(),
              run.p999Ms(),
              run.sent(),
              run.errors(),
              run.cpu());
        }
        Arm without = arms.get(0);
        Arm with = arms.get(arms.size() - 1);
        System.out.printf(
            Locale.ROOT,
            "pair %2d p99 ratio %.4f, shop CPU ratio %.4f (%.4f per load generator CPU)%n",
            i + 1,
            with.p99(i) / without.p99(i),
            with.cpu(i).shop() / without.cpu(i).shop(),
            with.cpu(i).shopPerLoad() / without.cpu(i).shopPerLoad());
      }
      System.out.println();
      for (int a = 1; a < arms.size(); a++) {
        report(arms.get(a), arms.get(0));
      }
      for (int b = 1; b < arms.size() - 1; b++) {
        report(arms.get(arms.size() - 1), arms.get(b));
      }
    } finally {
      deleteTree(data);
    }
  }

  /** One side of the comparison: no agent, or an agent jar with its arguments. */
  private record Arm(
      String name, Path jar, String agentArgs, List<String> jvmOptions, List<Run> runs) {
    Arm(String name, Path jar, String agentArgs, List<String> jvmOptions) {
      this(name, jar, agentArgs, jvmOptions, new ArrayList<>());
    }

    double p99(int round) {
      return runs.get(round).p99Ms();
    }

    CpuShares cpu(int round) {
      return runs.get(round).cpu();
    }
  }

  /**
   * The median p99 of both arms and the median of their per-round p99 ratios, with its interval.
   */
  private static void report(Arm arm, Arm against) {
    List<Double> ratios = new ArrayList<>();
    List<Double> p99 = new ArrayList<>();
    List<Double> p99Against = new ArrayList<>();
    for (int i = 0; i < arm.runs().size(); i++) {
      ratios.add(arm.p99(i) / against.p99(i));
      p99.add(arm.p99(i));
      p99Against.add(against.p99(i));
    }
    double median = median(ratios);
    System.out.printf(
        Locale.ROOT,
        "%s against %s: median p99 %.2f ms against %.2f ms; median of pair ratios %.4f (%+.2f %%)%n"
            + "95 %% interval for it %s%n",
        arm.name(),
        against.name(),
        median(p99),
        median(p99Against),
        median,
        (median - 1) * 100,
        MedianInterval.of(ratios, 0.95).asOverhead(ratios.size()));
    List<Double> cpuRatios = new ArrayList<>();
    List<Double> perLoadRatios = new ArrayList<>();
    for (int i = 0; i < arm.runs().size(); i++) {
      cpuRatios.add(arm.cpu(i).shop() / against.cpu(i).shop());
      perLoadRatios.add(arm.cpu(i).shopPerLoad() / against.cpu(i).shopPerLoad());
    }
    System.out.printf(
        Locale.ROOT,
        "shop CPU: median of pair ratios %+.2f %%, 95 %% interval %s;%n"
            + "shop CPU per load generator CPU (the same requests in every run, meant to cancel the"
            + " machine's drift): %+.2f %%, 95 %% interval %s%n",
        (median(cpuRatios) - 1) * 100,
        MedianInterval.of(cpuRatios, 0.95).asOverhead(cpuRatios.size()),
        (median(perLoadRatios) - 1) * 100,
        MedianInterval.of(perLoadRatios, 0.95).asOverhead(perLoadRatios.size()));
  }

  static void deleteTree(Path root) throws IOException {
    try (var paths = Files.walk(root)) {
      for (Path p : paths.sorted(Collections.reverseOrder()).toList()) {
        Files.deleteIfExists(p);
      }
    }
  }

  private static Run measure(
      String agentArgs,
      List<String> jvmOptions,
      Path examplesJar,
      Path agentJar,
      String rate,
      String warmup,
      String duration,
      CpuPinning pinning)
      throws IOException, InterruptedException {
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    List<String> shopCommand = new ArrayList<>(pinning.shopPrefix());
    shopCommand.addAll(List.of(java, "-Xms512m", "-Xmx512m"));
    shopCommand.addAll(jvmOptions);
    if (agentArgs != null) {
      shopCommand.add(AgentOption.of(agentJar, agentArgs));
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
      CpuShares cpu = CpuShares.measure(shop, load, loadWindow(warmup, duration));
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
          overall.path("errors").asLong(),
          cpu);
    } finally {
      shop.destroy();
      if (!shop.waitFor(10, TimeUnit.SECONDS)) {
        shop.destroyForcibly();
      }
    }
  }

  /**
   * The part of the load generator's run to take CPU over: its measured period, less a second at
   * each end so that neither the warm-up's last requests nor the generator's exit fall in it.
   */
  static Duration[] loadWindow(String warmup, String duration) {
    Duration start = parseDuration(warmup).plusSeconds(1);
    Duration end = parseDuration(warmup).plus(parseDuration(duration)).minusSeconds(1);
    if (end.compareTo(start) <= 0) {
      throw new IllegalArgumentException(
          "the measured period must be longer than 2 s: " + duration);
    }
    return new Duration[] {start, end};
  }

  /** {@code 500ms}, {@code 120s}, {@code 2m}, {@code 1h}: the forms the load generator takes. */
  static Duration parseDuration(String text) {
    String t = text.trim().toLowerCase(Locale.ROOT);
    if (t.endsWith("ms")) {
      return Duration.ofMillis(Long.parseLong(t.substring(0, t.length() - 2)));
    }
    return Duration.parse("PT" + t.toUpperCase(Locale.ROOT));
  }

  /** Reads the shop's output until it prints its port; the rest of its output is drained unread. */
  static int awaitPort(Process shop) throws IOException {
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
