package dev.whyslow.bench.latency;

import static dev.whyslow.bench.MedianInterval.median;

import dev.whyslow.bench.BuiltJars;
import dev.whyslow.bench.MedianInterval;
import dev.whyslow.daemon.RunningDaemon;
import dev.whyslow.daemon.Whyslowd;
import dev.whyslow.daemon.config.DaemonConfig;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;

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
      List<Double> p99Ratios = new ArrayList<>();
      List<Double> p50Ratios = new ArrayList<>();
      List<Double> cpuRatios = new ArrayList<>();
      List<Double> requestThreadRatios = new ArrayList<>();
      for (int pair = 0; pair < pairs; pair++) {
        boolean agentFirst = pair % 2 == 0;
        try (Shop first =
                Shop.start(
                    java,
                    examplesJar,
                    pinning,
                    agentFirst ? agentJar : baselineJar,
                    fullAgentArgs);
            Shop second =
                Shop.start(
                    java,
                    examplesJar,
                    pinning,
                    agentFirst ? baselineJar : agentJar,
                    fullAgentArgs);
            Load load = Load.start(java, examplesJar, idleRate)) {
          Shop agent = agentFirst ? first : second;
          Shop none = agentFirst ? second : first;
          // Warmed up one after the other, so that neither's JIT competes with the other's load.
          load.warmup(first, second, rate, warmup);
          load.warmup(second, first, rate, warmup);
          for (int s = 0; s < segments; s++) {
            boolean agentTurnFirst = (s % 2 == 0) == agentFirst;
            for (Shop shop : agentTurnFirst ? List.of(agent, none) : List.of(none, agent)) {
              load.measure(shop, shop == agent ? none : agent, rate, segment, s);
            }
          }
          double p99 = agent.percentileMs(0.99) / none.percentileMs(0.99);
          double p50 = agent.percentileMs(0.50) / none.percentileMs(0.50);
          double cpu = agent.cpuPerRequest() / none.cpuPerRequest();
          p99Ratios.add(p99);
          p50Ratios.add(p50);
          cpuRatios.add(cpu);
          requestThreadRatios.add(
              agent.cpuPerRequest(ThreadCpu.REQUESTS) / none.cpuPerRequest(ThreadCpu.REQUESTS));
          System.out.printf(
              Locale.ROOT,
              "pair %d  p99 %.2f ms with, %.2f ms without (%+.2f %%)  p50 %.2f / %.2f ms (%+.2f %%)"
                  + "  shop CPU per request %.1f / %.1f us (%+.2f %%)  errors %d / %d%n",
              pair + 1,
              agent.percentileMs(0.99),
              none.percentileMs(0.99),
              (p99 - 1) * 100,
              agent.percentileMs(0.50),
              none.percentileMs(0.50),
              (p50 - 1) * 100,
              agent.cpuPerRequest() * 1e6,
              none.cpuPerRequest() * 1e6,
              (cpu - 1) * 100,
              agent.errors,
              none.errors);
          System.out.printf(
              Locale.ROOT,
              "        CPU per request by thread, us, with / without: %s%n",
              byThreads(agent, none));
        }
      }
      System.out.println();
      summary("p99", p99Ratios);
      summary("p50", p50Ratios);
      summary("shop CPU per request", cpuRatios);
      summary("request threads' CPU per request", requestThreadRatios);
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

  /** Each kind of thread's CPU per request in both shops, {@code kind with/without}. */
  private static String byThreads(Shop agent, Shop none) {
    StringBuilder out = new StringBuilder();
    Map<String, Double> kinds = new TreeMap<>(agent.cpuByThreads);
    none.cpuByThreads.keySet().forEach(k -> kinds.putIfAbsent(k, 0.0));
    for (String kind : kinds.keySet()) {
      out.append(
          String.format(
              Locale.ROOT,
              "%s %.1f/%.1f  ",
              kind,
              agent.cpuByThreads.getOrDefault(kind, 0.0) / agent.requests * 1e6,
              none.cpuByThreads.getOrDefault(kind, 0.0) / none.requests * 1e6));
    }
    return out.toString().trim();
  }

  private static void summary(String what, List<Double> ratios) {
    double median = median(ratios);
    System.out.printf(
        Locale.ROOT,
        "%s: median of pair ratios %.4f (%+.2f %%), 95 %% interval %s%n",
        what,
        median,
        (median - 1) * 100,
        MedianInterval.of(ratios, 0.95).asOverhead(ratios.size()));
  }

  /** One shop JVM and what its measured segments gave. */
  private static final class Shop implements AutoCloseable {
    final Process process;
    final int port;
    final List<long[]> latenciesUs = new ArrayList<>();
    long requests;
    long errors;
    double cpuSeconds;
    final Map<String, Double> cpuByThreads = new TreeMap<>();

    private Shop(Process process, int port) {
      this.process = process;
      this.port = port;
    }

    static Shop start(
        String java, Path examplesJar, CpuPinning pinning, Path agentJar, String agentArgs)
        throws IOException {
      List<String> command = new ArrayList<>(pinning.shopPrefix());
      command.addAll(List.of(java, "-Xms512m", "-Xmx512m"));
      if (agentJar != null) {
        command.add("-javaagent:" + agentJar + "=" + agentArgs);
      }
      command.addAll(
          List.of(
              "-cp",
              examplesJar.toString(),
              "dev.whyslow.examples.shop.ShopService",
              "--port",
              "0",
              "--threads",
              "4"));
      Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
      try {
        return new Shop(process, ServiceLatencyBenchmark.awaitPort(process));
      } catch (IOException | RuntimeException e) {
        process.destroyForcibly();
        throw e;
      }
    }

    String url() {
      return "http://127.0.0.1:" + port;
    }

    double cpuNow() {
      return process
              .toHandle()
              .info()
              .totalCpuDuration()
              .map(Duration::toNanos)
              .orElseThrow(() -> new IllegalStateException("no CPU time for the shop"))
          / 1e9;
    }

    double percentileMs(double q) {
      long[] all = latenciesUs.stream().flatMapToLong(Arrays::stream).sorted().toArray();
      int rank = (int) Math.ceil(q * all.length);
      return all[Math.max(0, rank - 1)] / 1e3;
    }

    double cpuPerRequest() {
      return cpuSeconds / requests;
    }

    double cpuPerRequest(String threadKind) {
      return cpuByThreads.getOrDefault(threadKind, 0.0) / requests;
    }

    @Override
    public void close() {
      process.destroy();
      try {
        if (!process.waitFor(10, TimeUnit.SECONDS)) {
          process.destroyForcibly();
        }
      } catch (InterruptedException e) {
        process.destroyForcibly();
        Thread.currentThread().interrupt();
      }
    }
  }

  /** The load generator JVM ({@code examples}' {@code LoadSegments}). */
  private static final class Load implements AutoCloseable {
    private final Process process;
    private final BufferedReader output;
    private final Writer input;
    private final String idleRate;

    private Load(Process process, String idleRate) {
      this.idleRate = idleRate;
      this.process = process;
      this.output =
          new BufferedReader(
              new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
      this.input = new OutputStreamWriter(process.getOutputStream(), StandardCharsets.UTF_8);
    }

    static Load start(String java, Path examplesJar, String idleRate) throws IOException {
      return new Load(
          new ProcessBuilder(
                  java,
                  "-Xmx256m",
                  "-cp",
                  examplesJar.toString(),
                  "dev.whyslow.examples.shop.LoadSegments")
              .redirectError(ProcessBuilder.Redirect.INHERIT)
              .start(),
          idleRate);
    }

    void warmup(Shop shop, Shop idle, String rate, Duration length) throws IOException {
      send(
          "warmup " + shop.url() + " " + rate + " " + length.toSeconds() + " 1000" + trickle(idle));
      expect("warmed");
    }

    void measure(Shop shop, Shop idle, String rate, Duration length, int seed) throws IOException {
      double cpuBefore = shop.cpuNow();
      Map<String, Double> threadsBefore = ThreadCpu.of(shop.process.pid());
      send(
          "measure "
              + shop.url()
              + " "
              + rate
              + " "
              + length.toSeconds()
              + " "
              + seed
              + trickle(idle));
      String line = expect("segment ");
      shop.cpuSeconds += shop.cpuNow() - cpuBefore;
      ThreadCpu.minus(ThreadCpu.of(shop.process.pid()), threadsBefore)
          .forEach((kind, spent) -> shop.cpuByThreads.merge(kind, spent, Double::sum));
      String[] fields = line.split(" ");
      long sent = Long.parseLong(fields[1].substring("sent=".length()));
      shop.requests += sent;
      shop.errors += Long.parseLong(fields[2].substring("errors=".length()));
      String values = fields[3].substring("latencies_us=".length());
      shop.latenciesUs.add(
          values.isEmpty()
              ? new long[0]
              : Arrays.stream(values.split(",")).mapToLong(Long::parseLong).toArray());
    }

    private String trickle(Shop idle) {
      return idleRate == null ? "" : " " + idle.url() + " " + idleRate;
    }

    private void send(String command) throws IOException {
      input.write(command + "\n");
      input.flush();
    }

    private String expect(String prefix) throws IOException {
      String line = output.readLine();
      if (line == null || !line.startsWith(prefix)) {
        throw new IOException("load generator said '" + line + "', expected " + prefix.trim());
      }
      return line;
    }

    @Override
    public void close() throws IOException {
      input.close();
      try {
        if (!process.waitFor(1, TimeUnit.MINUTES)) {
          process.destroyForcibly();
        }
      } catch (InterruptedException e) {
        process.destroyForcibly();
        Thread.currentThread().interrupt();
      }
    }
  }
}
