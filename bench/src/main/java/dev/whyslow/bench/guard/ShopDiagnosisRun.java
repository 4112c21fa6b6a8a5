package dev.whyslow.bench.guard;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.whyslow.bench.AgentOption;
import dev.whyslow.bench.BuiltJars;
import dev.whyslow.daemon.RunningDaemon;
import dev.whyslow.daemon.Whyslowd;
import dev.whyslow.daemon.config.DaemonConfig;
import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * What the automatic diagnosis of the example shop says at the production rate, minute by minute
 * after its bug is switched on: one shop JVM per arm (the agent at {@code sampling.rate=0.0001}
 * with that arm's extra arguments), all at once, each under its own {@code LoadGenerator} at a
 * fixed rate, reporting to one whyslowd started here with a three-minute threshold window. After
 * the training phase each shop's wildcard-search bug is switched on ({@code POST /admin/bug});
 * then, at every query, the search unit type of each arm is diagnosed by its automatic labels over
 * the time since two minutes before the switch, with ΔLDA and CBI, and the top three predictors are
 * printed with the failing runs that observed the first.
 *
 * <p>Usage: {@code ShopDiagnosisRun <agent.jar> <examples.jar> [training=240s] [queries=6]
 * [every=120s] [bugShare=0.02] [rate=200] [arm ...]}; an arm is a suffix of agent arguments such as
 * {@code sampling.windows=on}, or {@code default} for none. Without arms: {@code default} and
 * {@code sampling.windows=on}. Shop logs go to {@code target/shop-diagnosis/arm-N.log}. Results:
 * bench/DIAGNOSIS.md.
 */
public final class ShopDiagnosisRun {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final HttpClient HTTP = HttpClient.newHttpClient();

  private ShopDiagnosisRun() {}

  public static void main(String[] args) throws Exception {
    BuiltJars jars =
        BuiltJars.fromArgs(
            args,
            "usage: ShopDiagnosisRun <agent.jar> <examples.jar> [training=240s] [queries=6]"
                + " [every=120s] [bugShare=0.02] [rate=200] [arm ...]");
    Duration training = seconds(args, 2, "training", "240s");
    int queries = args.length > 3 ? Integer.parseInt(args[3]) : 6;
    Duration every = seconds(args, 4, "every", "120s");
    String bugShare = args.length > 5 ? args[5] : "0.02";
    String rate = args.length > 6 ? args[6] : "200";
    List<String> arms =
        args.length > 7
            ? List.of(args).subList(7, args.length)
            : List.of("default", "sampling.windows=on");
    Path logDir = Path.of("target/shop-diagnosis");
    Files.createDirectories(logDir);
    Duration loadFor = training.plus(every.multipliedBy(queries)).plusMinutes(2);

    Path data = Files.createTempDirectory("whyslow-shop-diagnosis");
    List<Process> processes = new ArrayList<>();
    try (RunningDaemon daemon =
        Whyslowd.start(
            DaemonConfig.defaults()
                .with("data.dir", data.toString())
                .with("agent.bind", "127.0.0.1:0")
                .with("http.bind", "127.0.0.1:0")
                .with("thresholds.window", "3m"))) {
      System.out.printf(
          Locale.ROOT,
          "%s%nrate %s/s, mix %s; training %d s, then bug share %s; %d queries every %d s; arms"
              + " %s%n%n",
          ShopAuditRun.machine(),
          rate,
          ShopAuditRun.MIX,
          training.toSeconds(),
          bugShare,
          queries,
          every.toSeconds(),
          arms);
      List<String> shopUrls = new ArrayList<>();
      for (int i = 0; i < arms.size(); i++) {
        String extra = arms.get(i).equals("default") ? "" : "," + arms.get(i);
        String agentArgs =
            "service="
                + service(i)
                + ",include=dev.whyslow.examples.shop,sampling.rate=0.0001,log=info,daemon=127.0.0.1:"
                + daemon.agentPort()
                + extra;
        ShopAuditRun.ShopOutput out = new ShopAuditRun.ShopOutput();
        Process shop =
            new ProcessBuilder(
                    java(),
                    "-Xms512m",
                    "-Xmx512m",
                    AgentOption.of(jars.agent(), agentArgs),
                    "-cp",
                    jars.examples().toString(),
                    "dev.whyslow.examples.shop.ShopService",
                    "--port",
                    "0",
                    "--threads",
                    "4")
                .redirectErrorStream(true)
                .start();
        processes.add(shop);
        ShopAuditRun.readInto(shop, out, logDir.resolve("arm-" + i + ".log"));
        String url = "http://127.0.0.1:" + out.port.get(60, TimeUnit.SECONDS);
        shopUrls.add(url);
        processes.add(load(jars.examples(), url, rate, loadFor));
      }
      Thread.sleep(training.toMillis());
      long bugOnMillis = System.currentTimeMillis();
      for (String url : shopUrls) {
        post(url + "/admin/bug?share=" + bugShare);
      }
      for (int q = 1; q <= queries; q++) {
        Thread.sleep(every.toMillis());
        long minutes = (System.currentTimeMillis() - bugOnMillis) / 60_000;
        for (int i = 0; i < arms.size(); i++) {
          for (String model : List.of("delta-lda", "cbi")) {
            System.out.printf(
                Locale.ROOT,
                "%2d min  %-22s %-9s %s%n",
                minutes,
                arms.get(i),
                model,
                summary(diagnose(daemon, service(i), model, bugOnMillis - 120_000)));
          }
        }
      }
    } finally {
      for (Process p : processes) {
        ShopAuditRun.stop(p);
      }
      ShopAuditRun.deleteTree(data);
    }
  }

  private static String service(int arm) {
    return "shop-diagnosis-" + arm;
  }

  /** The diagnosis of the search unit type, or empty while the daemon has no threshold for it. */
  private static Optional<JsonNode> diagnose(
      RunningDaemon daemon, String service, String model, long fromMillis)
      throws IOException, InterruptedException {
    String base = daemon.httpUri().toString().replaceAll("/$", "");
    JsonNode thresholds = get(base + "/api/v1/thresholds?service=" + service);
    for (JsonNode t : thresholds.path("thresholds")) {
      String type = t.path("unitType").asText();
      if (type.toLowerCase(Locale.ROOT).contains("search")) {
        return Optional.of(
            get(
                base
                    + "/api/v1/diagnosis?top=3&model="
                    + model
                    + "&service="
                    + service
                    + "&from="
                    + fromMillis
                    + "&unitType="
                    + URLEncoder.encode(type, StandardCharsets.UTF_8)));
      }
    }
    return Optional.empty();
  }

  /** Runs, the top three predictors and how many failing runs observed the first. */
  private static String summary(Optional<JsonNode> report) {
    if (report.isEmpty()) {
      return "no threshold for the search unit type yet";
    }
    JsonNode r = report.get();
    StringBuilder s =
        new StringBuilder(
            String.format(
                Locale.ROOT,
                "failing %d, successful %d:",
                r.path("failingRuns").asLong(),
                r.path("successRuns").asLong()));
    JsonNode predictors = r.path("predictors");
    if (predictors.isEmpty()) {
      return s.append(" nothing ranked (")
          .append(r.path("insufficient").path(0).asText("?"))
          .append(")")
          .toString();
    }
    for (int i = 0; i < Math.min(3, predictors.size()); i++) {
      JsonNode p = predictors.get(i);
      String className = p.path("className").asText();
      s.append(i == 0 ? " " : " | ")
          .append(className.substring(className.lastIndexOf('.') + 1))
          .append('.')
          .append(p.path("methodName").asText())
          .append(':')
          .append(p.path("line").asInt())
          .append(' ')
          .append(p.path("predicate").asText());
    }
    JsonNode first = predictors.get(0).path("counts");
    return s.append(
            String.format(
                Locale.ROOT,
                "; the first observed in %d failing, %d successful runs",
                first.path("failingObserved").asLong(),
                first.path("successObserved").asLong()))
        .toString();
  }

  private static Process load(Path examplesJar, String url, String rate, Duration duration)
      throws IOException {
    return new ProcessBuilder(
            ShopAuditRun.loadGenerator(
                java(), examplesJar, url, rate, duration.toSeconds() + "s", "0"))
        .redirectErrorStream(true)
        .redirectOutput(ProcessBuilder.Redirect.DISCARD)
        .start();
  }

  private static JsonNode get(String uri) throws IOException, InterruptedException {
    HttpResponse<String> response =
        HTTP.send(
            HttpRequest.newBuilder(URI.create(uri)).GET().build(),
            HttpResponse.BodyHandlers.ofString());
    return JSON.readTree(response.body());
  }

  private static void post(String uri) throws IOException, InterruptedException {
    HttpResponse<String> response =
        HTTP.send(
            HttpRequest.newBuilder(URI.create(uri))
                .POST(HttpRequest.BodyPublishers.noBody())
                .build(),
            HttpResponse.BodyHandlers.ofString());
    if (response.statusCode() != 200) {
      throw new IllegalStateException(
          uri + " answered " + response.statusCode() + ": " + response.body());
    }
  }

  private static Duration seconds(String[] args, int index, String name, String fallback) {
    String text = args.length > index ? args[index] : fallback;
    if (!text.matches("\\d+s")) {
      throw new IllegalArgumentException(
          name + " must be a whole number of seconds such as " + fallback + ", was " + text);
    }
    return Duration.ofSeconds(Long.parseLong(text.substring(0, text.length() - 1)));
  }

  private static String java() {
    return Path.of(System.getProperty("java.home"), "bin", "java").toString();
  }
}
