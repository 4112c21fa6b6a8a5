package dev.whyslow.bench.guard;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.whyslow.bench.AgentOption;
import dev.whyslow.bench.BuiltJars;
import dev.whyslow.daemon.RunningDaemon;
import dev.whyslow.daemon.Whyslowd;
import dev.whyslow.daemon.config.DaemonConfig;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * How often the guards' inference names the type the whole trace belongs to, on the real example
 * shop: each run is a fresh {@code ShopService} JVM under the agent ({@code units.audit.share},
 * default training settings, {@code log=info}) reporting to a whyslowd started here, driven by
 * {@code LoadGenerator} (own JVM, default mix, fixed rate) in two phases: a training phase long
 * enough for the agent to train, then a measured phase. The bug share (wildcard searches, the slow
 * path) can differ between the phases, so one can train healthy and then turn the bug on. Prints,
 * per run, the agent's audit over the measured phase (difference of its counters at the two phase
 * ends) and over the whole JVM (its exit line), and the daemon's unit counts per type in the
 * measured phase next to the requests sent per kind.
 *
 * <p>Usage: {@code ShopAuditRun <agent.jar> <examples.jar> [runs=3] [rate=200] [training=30s]
 * [measured=120s] [bugShare=0] [auditShare=0.25] [logDir=target/shop-audit]}; {@code bugShare} is
 * one share for both phases, or {@code training:measured} such as {@code 0:0.05}. Each shop's
 * output is kept in {@code logDir/run-N.log}. Results and what the few disagreements were:
 * bench/GUARDS.md.
 */
public final class ShopAuditRun {
  static final String MIX = "search=50,product=30,cart=15,checkout=5";
  private static final Pattern LISTENING = Pattern.compile("shop listening on (\\d+)");
  private static final Pattern TRAINED = Pattern.compile("\\[whyslow\\] (trained .*)");
  private static final Pattern AUDIT =
      Pattern.compile("unit type audit: inferred type agreed with the full trace in (\\d+)/(\\d+)");
  private static final Pattern EXIT_AUDIT = Pattern.compile("\\bexit: .* audit (\\d+)/(\\d+)");

  /** Audited units so far: those whose inferred type agreed, and all. */
  record Audit(long agreed, long total) {
    static final Audit NONE = new Audit(0, 0);

    Audit minus(Audit earlier) {
      return new Audit(agreed - earlier.agreed, total - earlier.total);
    }

    Audit plus(Audit other) {
      return new Audit(agreed + other.agreed, total + other.total);
    }

    String text() {
      return total == 0
          ? agreed + "/" + total
          : String.format(Locale.ROOT, "%d/%d (%.2f %%)", agreed, total, 100.0 * agreed / total);
    }
  }

  /** What one shop JVM said, as its output streams by. */
  static final class ShopOutput {
    final CompletableFuture<Integer> port = new CompletableFuture<>();
    final AtomicReference<String> trained = new AtomicReference<>();
    final AtomicReference<Audit> audit = new AtomicReference<>(Audit.NONE);
    final AtomicReference<Audit> exitAudit = new AtomicReference<>();
    volatile long auditLines;

    void line(String line) {
      Matcher m = LISTENING.matcher(line);
      if (m.find()) {
        port.complete(Integer.parseInt(m.group(1)));
      }
      m = TRAINED.matcher(line);
      if (m.find()) {
        trained.set(m.group(1));
      }
      m = AUDIT.matcher(line);
      if (m.find()) {
        audit.set(new Audit(Long.parseLong(m.group(1)), Long.parseLong(m.group(2))));
        auditLines++;
      }
      m = EXIT_AUDIT.matcher(line);
      if (m.find()) {
        exitAudit.set(new Audit(Long.parseLong(m.group(1)), Long.parseLong(m.group(2))));
      }
    }
  }

  private ShopAuditRun() {}

  public static void main(String[] args) throws Exception {
    BuiltJars jars =
        BuiltJars.fromArgs(
            args,
            "usage: ShopAuditRun <agent.jar> <examples.jar> [runs=3] [rate=200] [training=30s]"
                + " [measured=120s] [bugShare=0 | training:measured] [auditShare=0.25]"
                + " [logDir=target/shop-audit]");
    Path agentJar = jars.agent();
    Path examplesJar = jars.examples();
    int runs = args.length > 2 ? Integer.parseInt(args[2]) : 3;
    String rate = args.length > 3 ? args[3] : "200";
    String training = args.length > 4 ? args[4] : "30s";
    String measured = args.length > 5 ? args[5] : "120s";
    String bug = args.length > 6 ? args[6] : "0";
    String auditShare = args.length > 7 ? args[7] : "0.25";
    Path logDir = Path.of(args.length > 8 ? args[8] : "target/shop-audit");
    String trainingBug = bug.contains(":") ? bug.substring(0, bug.indexOf(':')) : bug;
    String measuredBug = bug.contains(":") ? bug.substring(bug.indexOf(':') + 1) : bug;
    Files.createDirectories(logDir);

    Path data = Files.createTempDirectory("whyslow-shop-audit");
    try (RunningDaemon daemon =
        Whyslowd.start(
            DaemonConfig.defaults()
                .with("data.dir", data.toString())
                .with("agent.bind", "127.0.0.1:0")
                .with("http.bind", "127.0.0.1:0"))) {
      System.out.printf(
          Locale.ROOT,
          "%s%nrate %s/s, mix %s; training phase %s (bug share %s), measured phase %s (bug share"
              + " %s); units.audit.share=%s; %d runs%n%n",
          machine(),
          rate,
          MIX,
          training,
          trainingBug,
          measured,
          measuredBug,
          auditShare,
          runs);
      Audit measuredSum = Audit.NONE;
      Audit wholeSum = Audit.NONE;
      for (int i = 1; i <= runs; i++) {
        String service = "shop-audit-" + i;
        String agentArgs =
            "service="
                + service
                + ",include=dev.whyslow.examples.shop,log=info,units.stats.interval=1s"
                + ",units.audit.share="
                + auditShare
                + ",daemon=127.0.0.1:"
                + daemon.agentPort();
        Audit[] result =
            run(
                i,
                service,
                agentArgs,
                agentJar,
                examplesJar,
                daemon,
                rate,
                training,
                measured,
                trainingBug,
                measuredBug,
                logDir.resolve("run-" + i + ".log"));
        measuredSum = measuredSum.plus(result[0]);
        wholeSum = wholeSum.plus(result[1]);
      }
      System.out.printf(
          Locale.ROOT,
          "%nall runs: measured phase %s; whole JVMs %s%n",
          measuredSum.text(),
          wholeSum.text());
    } finally {
      deleteTree(data);
    }
  }

  /** One fresh shop JVM; returns the audit of the measured phase and of the whole JVM. */
  private static Audit[] run(
      int index,
      String service,
      String agentArgs,
      Path agentJar,
      Path examplesJar,
      RunningDaemon daemon,
      String rate,
      String training,
      String measured,
      String trainingBug,
      String measuredBug,
      Path log)
      throws IOException, InterruptedException {
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    List<String> shopCommand =
        List.of(
            java,
            "-Xms512m",
            "-Xmx512m",
            AgentOption.of(agentJar, agentArgs),
            "-cp",
            examplesJar.toString(),
            "dev.whyslow.examples.shop.ShopService",
            "--port",
            "0",
            "--threads",
            "4");
    Process shop = new ProcessBuilder(shopCommand).redirectErrorStream(true).start();
    ShopOutput out = new ShopOutput();
    Thread reader = readInto(shop, out, log);
    try {
      int port;
      try {
        port = out.port.get(60, TimeUnit.SECONDS);
      } catch (Exception e) {
        throw new IllegalStateException("the shop did not start; see " + log, e);
      }
      String url = "http://127.0.0.1:" + port;
      load(java, examplesJar, url, rate, training, trainingBug);
      if (out.trained.get() == null) {
        throw new IllegalStateException(
            "the agent had not trained after the training phase; make it longer (see " + log + ")");
      }
      Audit before = awaitFreshAudit(out);
      long measuredFrom = System.currentTimeMillis();
      JsonNode report = load(java, examplesJar, url, rate, measured, measuredBug);
      Audit after = awaitFreshAudit(out);
      long measuredTo = System.currentTimeMillis();
      Audit phase = after.minus(before);
      Map<String, Long> byType = unitCounts(daemon, service, measuredFrom, measuredTo);
      stop(shop);
      reader.join(TimeUnit.SECONDS.toMillis(10));
      boolean exitLine = out.exitAudit.get() != null;
      Audit whole = exitLine ? out.exitAudit.get() : out.audit.get();
      System.out.printf(
          Locale.ROOT,
          "run %d: %s%n  measured phase: agreed %s; whole JVM (%s): %s%n",
          index,
          out.trained.get(),
          phase.text(),
          exitLine ? "exit line" : "last audit line, no exit line",
          whole.text());
      System.out.print("  sent per kind in the measured phase:");
      for (String kind : List.of("search", "product", "cart", "checkout")) {
        JsonNode k = report.path("kinds").path(kind);
        System.out.printf(
            Locale.ROOT,
            " %s %d (%d errors)",
            kind,
            k.path("sent").asLong(),
            k.path("errors").asLong());
      }
      System.out.printf(
          Locale.ROOT, "; p99 %.2f ms%n", report.path("overall").path("p99Ms").asDouble());
      System.out.println("  units per type at the daemon over the measured phase:");
      byType.forEach((type, n) -> System.out.printf(Locale.ROOT, "    %8d  %s%n", n, type));
      return new Audit[] {phase, whole};
    } finally {
      stop(shop);
    }
  }

  /** Runs the load generator to the end and returns its JSON report. */
  private static JsonNode load(
      String java, Path examplesJar, String url, String rate, String duration, String bugShare)
      throws IOException, InterruptedException {
    List<String> command =
        new ArrayList<>(loadGenerator(java, examplesJar, url, rate, duration, bugShare));
    command.add("--json");
    Process load =
        new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.INHERIT).start();
    String json = new String(load.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    if (!load.waitFor(1, TimeUnit.HOURS) || load.exitValue() != 0) {
      throw new IllegalStateException("load generator failed: " + json);
    }
    return new ObjectMapper().readTree(json);
  }

  /**
   * The command line of the shop's {@code LoadGenerator} at a fixed rate with the default mix and
   * no warm-up, setting the bug share on the shop first.
   */
  static List<String> loadGenerator(
      String java, Path examplesJar, String url, String rate, String duration, String bugShare) {
    return List.of(
        java,
        "-Xmx256m",
        "-cp",
        examplesJar.toString(),
        "dev.whyslow.examples.shop.LoadGenerator",
        "--url",
        url,
        "--rate",
        rate,
        "--warmup",
        "0s",
        "--duration",
        duration,
        "--mix",
        MIX,
        "--bug-share",
        bugShare);
  }

  /**
   * Waits for two more audit lines (logged every {@code units.stats.interval}, 1 s here), so units
   * that ended before now have been checked, and returns the counters of the last.
   */
  private static Audit awaitFreshAudit(ShopOutput out) throws InterruptedException {
    long seen = out.auditLines;
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    while (out.auditLines < seen + 2) {
      if (System.nanoTime() > deadline) {
        throw new IllegalStateException(
            "no audit line for 30 s: is units.audit.share above 0 and log=info?");
      }
      Thread.sleep(50);
    }
    return out.audit.get();
  }

  /** Units per type the daemon counted for {@code service} between the two times. */
  private static Map<String, Long> unitCounts(
      RunningDaemon daemon, String service, long from, long to)
      throws IOException, InterruptedException {
    Thread.sleep(2_000); // the last histograms are sent every second
    String base = daemon.httpUri().toString().replaceAll("/$", "");
    URI uri =
        URI.create(
            base
                + "/api/v1/units?service="
                + URLEncoder.encode(service, StandardCharsets.UTF_8)
                + "&from="
                + from
                + "&to="
                + to);
    HttpResponse<String> response =
        HttpClient.newHttpClient()
            .send(HttpRequest.newBuilder(uri).GET().build(), HttpResponse.BodyHandlers.ofString());
    Map<String, Long> counts = new TreeMap<>();
    for (JsonNode unit : new ObjectMapper().readTree(response.body()).path("units")) {
      counts.put(unit.path("unitType").asText(), unit.path("count").asLong());
    }
    return counts;
  }

  /** Copies the shop's output to {@code log} and into {@code out}. */
  static Thread readInto(Process shop, ShopOutput out, Path log) throws IOException {
    PrintWriter file = new PrintWriter(Files.newBufferedWriter(log, StandardCharsets.UTF_8), true);
    BufferedReader reader =
        new BufferedReader(new InputStreamReader(shop.getInputStream(), StandardCharsets.UTF_8));
    Thread t =
        new Thread(
            () -> {
              try (file;
                  reader) {
                for (String line; (line = reader.readLine()) != null; ) {
                  file.println(line);
                  out.line(line);
                }
              } catch (IOException e) {
                // the shop is gone
              }
            },
            "shop-output");
    t.setDaemon(true);
    t.start();
    return t;
  }

  /**
   * Asks the shop to exit (SIGTERM, so the agent logs its exit line) and waits for it. Through its
   * {@link ProcessHandle}: {@link Process#destroy} would also close our end of the shop's output
   * and lose that line.
   */
  static void stop(Process shop) throws InterruptedException {
    if (!shop.isAlive()) {
      return;
    }
    shop.toHandle().destroy();
    if (!shop.waitFor(20, TimeUnit.SECONDS)) {
      shop.destroyForcibly();
    }
  }

  static void deleteTree(Path root) throws IOException {
    try (var paths = Files.walk(root)) {
      for (Path p : paths.sorted(Collections.reverseOrder()).toList()) {
        Files.deleteIfExists(p);
      }
    }
  }

  static String machine() {
    List<String> parts = new ArrayList<>();
    parts.add(Runtime.getRuntime().availableProcessors() + " CPUs");
    parts.add(System.getProperty("os.name") + " " + System.getProperty("os.arch"));
    parts.add(
        "Java "
            + System.getProperty("java.version")
            + " ("
            + System.getProperty("java.vm.name")
            + ")");
    parts.add(
        String.format(
            Locale.ROOT,
            "load average %.2f",
            java.lang.management.ManagementFactory.getOperatingSystemMXBean()
                .getSystemLoadAverage()));
    return "machine: " + String.join(", ", parts);
  }
}
