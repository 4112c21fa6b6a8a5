package dev.whyslow.examples.ops;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.whyslow.daemon.RunningDaemon;
import dev.whyslow.daemon.Whyslowd;
import dev.whyslow.daemon.config.DaemonConfig;
import dev.whyslow.examples.shop.LoadGenerator;
import dev.whyslow.examples.shop.LoadOptions;
import dev.whyslow.examples.shop.LoadReport;
import java.io.File;
import java.io.IOException;
import java.net.ServerSocket;
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
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.extension.TestWatcher;
import org.junit.jupiter.api.io.TempDir;

/**
 * Alerting end to end with real Prometheus and Alertmanager on loopback: the shop runs under the
 * agent against an in-process whyslowd; once the daemon has a threshold for the search unit type,
 * the test switches the shop's wildcard-search bug on, and waits for Alertmanager's webhook to
 * deliver {@code WhyslowUnitThresholdViolations} for that service and unit type, fired by the very
 * rules file in {@code deploy/prometheus}; then the daemon's automatic diagnosis of the type must
 * rank the root-cause branch of {@code CatalogSearch} first.
 *
 * <p>The only change to the rules is in the test's copy: every {@code for:} duration becomes
 * {@value #RULE_FOR} so the test does not wait minutes. Skipped, saying which binary is missing,
 * where {@code prometheus} or {@code prometheus-alertmanager} is not installed ({@code .ci/run}
 * installs both Debian packages).
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@Timeout(value = 12, unit = TimeUnit.MINUTES)
class AlertingIT {
  static final String SERVICE = "shop-alerting";
  static final String RULE_FOR = "5s";
  static final Duration WINDOW = Duration.ofMinutes(1);
  static final Path RULES = Path.of("../deploy/prometheus/whyslow-alerts.yml");
  static final Path SEARCH_SOURCE =
      Path.of("src/main/java/dev/whyslow/examples/shop/CatalogSearch.java");
  static final ObjectMapper JSON = new ObjectMapper();

  @TempDir static Path temp;
  final HttpClient http = HttpClient.newHttpClient();
  final List<ExternalProcess> processes = new CopyOnWriteArrayList<>();
  RunningDaemon daemon;
  WebhookReceiver receiver;
  LoadLoop load;
  String shopUrl;
  String prometheusUrl;

  @RegisterExtension
  final TestWatcher printLogsOnFailure =
      new TestWatcher() {
        @Override
        public void testFailed(ExtensionContext context, Throwable cause) {
          printLogs();
        }
      };

  @BeforeAll
  void startEverything() throws Exception {
    String prometheus = binary("prometheus");
    String alertmanager = binary("prometheus-alertmanager");
    assumeTrue(
        prometheus != null,
        "skipped: the prometheus binary is not on PATH (Debian package prometheus)");
    assumeTrue(
        alertmanager != null,
        "skipped: the prometheus-alertmanager binary is not on PATH (Debian package prometheus-alertmanager)");
    assertThat(RULES)
        .as("the rules file, read from the examples module's directory")
        .isRegularFile();

    daemon =
        Whyslowd.start(
            DaemonConfig.defaults()
                .with(
                    Map.of(
                        "data.dir", temp.resolve("whyslowd").toString(),
                        "agent.bind", "127.0.0.1:0",
                        "http.bind", "127.0.0.1:0",
                        "thresholds.window", WINDOW.toSeconds() + "s",
                        "thresholds.min.count", "50",
                        "thresholds.interval", "1s")));
    receiver = new WebhookReceiver();
    startShop();
    int alertmanagerPort = freePort();
    startAlertmanager(alertmanager, alertmanagerPort);
    startPrometheus(prometheus, alertmanagerPort);
  }

  void startShop() throws Exception {
    String agentArgs =
        String.join(
            ",",
            "service=" + SERVICE,
            "include=dev.whyslow.examples.shop",
            "daemon=127.0.0.1:" + daemon.agentPort(),
            // Every predicate is recorded, so a few minutes of units are enough for a diagnosis.
            "sampling.rate=1",
            "units.stats.interval=1s",
            "units.training.units=200",
            "units.training.share=0.5");
    List<String> command =
        List.of(
            Path.of(System.getProperty("java.home"), "bin", "java").toString(),
            "-XX:-UsePerfData",
            "-javaagent:" + jar("whyslow.agent.jar") + "=" + agentArgs,
            "-cp",
            jar("whyslow.examples.jar").toString(),
            "dev.whyslow.examples.shop.ShopService",
            "--port",
            "0");
    ExternalProcess shop = started(ExternalProcess.start("shop", command, temp));
    shopUrl =
        "http://127.0.0.1:"
            + shop.awaitLine(Pattern.compile("shop listening on (\\d+)"), Duration.ofSeconds(60));
  }

  void startAlertmanager(String binary, int port) throws Exception {
    Path config = temp.resolve("alertmanager.yml");
    Files.writeString(
        config,
        String.join(
            "\n",
            "route:",
            "  receiver: test",
            "  group_by: [alertname, service, unit_type]",
            "  group_wait: 1s",
            "  group_interval: 1s",
            "  repeat_interval: 1h",
            "receivers:",
            "  - name: test",
            "    webhook_configs:",
            "      - url: " + receiver.url(),
            ""));
    started(
        ExternalProcess.start(
            "alertmanager",
            List.of(
                binary,
                "--config.file=" + config,
                "--storage.path=" + Files.createDirectories(temp.resolve("alertmanager-data")),
                "--web.listen-address=127.0.0.1:" + port,
                "--cluster.listen-address="),
            temp));
    awaitReady("http://127.0.0.1:" + port);
  }

  void startPrometheus(String binary, int alertmanagerPort) throws Exception {
    // The repository's rules with only the for: durations shortened (see the class comment).
    String rules =
        Files.readString(RULES)
            .replaceAll("(?m)^([ \\t]+for:)[ \\t]*\\S+[ \\t]*$", "$1 " + RULE_FOR);
    Files.writeString(temp.resolve("whyslow-alerts.yml"), rules);
    Path config = temp.resolve("prometheus.yml");
    Files.writeString(
        config,
        String.join(
            "\n",
            "global:",
            "  scrape_interval: 1s",
            "  evaluation_interval: 1s",
            "rule_files: [" + temp.resolve("whyslow-alerts.yml") + "]",
            "alerting:",
            "  alertmanagers:",
            "    - static_configs:",
            "        - targets: ['127.0.0.1:" + alertmanagerPort + "']",
            "scrape_configs:",
            "  - job_name: whyslowd",
            "    static_configs:",
            "      - targets: ['127.0.0.1:" + daemon.httpPort() + "']",
            ""));
    int port = freePort();
    started(
        ExternalProcess.start(
            "prometheus",
            List.of(
                binary,
                "--config.file=" + config,
                "--storage.tsdb.path=" + Files.createDirectories(temp.resolve("prometheus-data")),
                "--web.listen-address=127.0.0.1:" + port),
            temp));
    prometheusUrl = "http://127.0.0.1:" + port;
    awaitReady(prometheusUrl);
  }

  @Test
  void injectedSlowPathFiresTheAlertAndTheDiagnosisRanksTheRootCauseFirst() throws Exception {
    load = new LoadLoop(shopUrl);
    String searchType =
        await(
            "a threshold for the search unit type of " + SERVICE,
            Duration.ofMinutes(4),
            () -> searchTypeWithThreshold());
    // The first thresholds come from a window that holds the shop's start-up (JIT compilation, the
    // units traced for training), far slower than its steady state; keep the healthy load on
    // until the window has slid past it, so the threshold describes healthy searches.
    long settled = System.currentTimeMillis() + WINDOW.toMillis();
    await(
        "the threshold window to slide past the shop's start-up",
        WINDOW.plusSeconds(30),
        () -> System.currentTimeMillis() >= settled ? Optional.of(true) : Optional.empty());
    long injected = System.currentTimeMillis();
    // One noun in fifty: slow searches stay rare enough that the mean + k sigma of the daemon's
    // window, which takes them in from now on, does not climb over them while the test runs.
    assertThat(post(shopUrl + "/admin/bug?share=0.02").get("share").asDouble()).isEqualTo(0.02);

    JsonNode alert =
        await(
            "WhyslowUnitThresholdViolations for "
                + SERVICE
                + " / "
                + searchType
                + " at the webhook",
            Duration.ofMinutes(4),
            () ->
                receiver
                    .firing(
                        "WhyslowUnitThresholdViolations",
                        "service",
                        SERVICE,
                        "unit_type",
                        searchType)
                    .stream()
                    .findFirst());
    assertThat(alert.path("annotations").path("violations_url").asText())
        .isEqualTo(
            "http://127.0.0.1:"
                + daemon.httpPort()
                + "/api/v1/violations?service="
                + SERVICE
                + "&unitType="
                + URLEncoder.encode(searchType, StandardCharsets.UTF_8));

    JsonNode diagnosis =
        await(
            "a diagnosis of " + searchType + " with failing runs",
            Duration.ofMinutes(2),
            () -> {
              JsonNode report = get(diagnosisUrl(searchType, injected - 120_000));
              return report.path("failingRuns").asInt() >= 20
                      && report.path("predictors").size() > 0
                  ? Optional.of(report)
                  : Optional.empty();
            });
    JsonNode top = diagnosis.path("predictors").get(0);
    assertThat(top.path("className").asText())
        .as(diagnosis.toPrettyString())
        .isEqualTo("dev.whyslow.examples.shop.CatalogSearch");
    assertThat(top.path("kind").asText()).as(diagnosis.toPrettyString()).isEqualTo("branch");
    assertThat(top.path("line").asInt()).as(diagnosis.toPrettyString()).isEqualTo(rootCauseLine());
    System.out.println("AlertingIT: alert " + alert + "\nAlertingIT: top predictor " + top);
  }

  /** The search unit type, once the daemon reports a threshold for it. */
  Optional<String> searchTypeWithThreshold() {
    JsonNode thresholds = get(daemon.httpUri() + "/api/v1/thresholds?service=" + SERVICE);
    List<String> found = new ArrayList<>();
    collectTypesWithThreshold(thresholds, found);
    return found.stream()
        .filter(t -> t.toLowerCase(java.util.Locale.ROOT).contains("search"))
        .findFirst();
  }

  static void collectTypesWithThreshold(JsonNode node, List<String> found) {
    if (node.isObject() && node.path("unitType").isTextual()) {
      node.properties()
          .forEach(
              f -> {
                if (f.getKey().toLowerCase(java.util.Locale.ROOT).startsWith("threshold")
                    && f.getValue().isNumber()
                    && f.getValue().asDouble() > 0) {
                  found.add(node.path("unitType").asText());
                }
              });
    }
    node.forEach(child -> collectTypesWithThreshold(child, found));
  }

  String diagnosisUrl(String unitType, long fromMillis) {
    return daemon.httpUri()
        + "/api/v1/diagnosis?service="
        + SERVICE
        + "&unitType="
        + URLEncoder.encode(unitType, StandardCharsets.UTF_8)
        + "&from="
        + fromMillis
        + "&to="
        + (System.currentTimeMillis() + 1_000);
  }

  static int rootCauseLine() throws IOException {
    List<String> lines = Files.readAllLines(SEARCH_SOURCE, StandardCharsets.UTF_8);
    for (int i = 0; i < lines.size(); i++) {
      // The marker comment on the code, not the Javadoc that mentions it.
      if (lines.get(i).contains("// ROOT CAUSE:") && !lines.get(i).trim().startsWith("*")) {
        return i + 1;
      }
    }
    throw new AssertionError("no // ROOT CAUSE: marker in the code of " + SEARCH_SOURCE);
  }

  @AfterAll
  void stopEverything() throws Exception {
    if (load != null) {
      load.close();
    }
    for (ExternalProcess process : processes) {
      process.close();
    }
    if (receiver != null) {
      receiver.close();
    }
    if (daemon != null) {
      daemon.close();
    }
  }

  void printLogs() {
    for (ExternalProcess process : processes) {
      System.out.println("----- " + process.name() + " (last 80 lines) -----\n" + process.tail(80));
    }
    if (receiver != null) {
      System.out.println(
          "----- webhook notifications -----\n" + String.join("\n", receiver.bodies()));
    }
    if (load != null) {
      System.out.println("----- load -----\n" + load.lastReport());
    }
    if (daemon != null) {
      for (String path : List.of("/api/v1/units", "/api/v1/thresholds", "/api/v1/violations")) {
        System.out.println(
            "----- whyslowd "
                + path
                + " -----\n"
                + quietly(daemon.httpUri() + path + "?service=" + SERVICE));
      }
    }
    if (prometheusUrl != null) {
      System.out.println(
          "----- prometheus alerts -----\n" + quietly(prometheusUrl + "/api/v1/alerts"));
    }
  }

  String quietly(String url) {
    try {
      return get(url).toString();
    } catch (AssertionError e) {
      return e.getMessage();
    }
  }

  ExternalProcess started(ExternalProcess process) {
    processes.add(process);
    return process;
  }

  JsonNode get(String url) {
    try {
      HttpResponse<String> r =
          http.send(
              HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(30)).build(),
              HttpResponse.BodyHandlers.ofString());
      if (r.statusCode() != 200) {
        throw new AssertionError("GET " + url + " answered " + r.statusCode() + ": " + r.body());
      }
      return JSON.readTree(r.body());
    } catch (IOException e) {
      throw new AssertionError("GET " + url + " failed: " + e, e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError("interrupted", e);
    }
  }

  JsonNode post(String url) throws IOException, InterruptedException {
    HttpResponse<String> r =
        http.send(
            HttpRequest.newBuilder(URI.create(url))
                .POST(HttpRequest.BodyPublishers.noBody())
                .build(),
            HttpResponse.BodyHandlers.ofString());
    assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
    return JSON.readTree(r.body());
  }

  void awaitReady(String baseUrl) throws InterruptedException {
    await(
        baseUrl + "/-/ready",
        Duration.ofSeconds(60),
        () -> {
          try {
            HttpResponse<Void> r =
                http.send(
                    HttpRequest.newBuilder(URI.create(baseUrl + "/-/ready")).build(),
                    HttpResponse.BodyHandlers.discarding());
            return r.statusCode() == 200 ? Optional.of(true) : Optional.empty();
          } catch (IOException e) {
            return Optional.empty();
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Optional.empty();
          }
        });
  }

  /** Polls {@code condition} every half second until it has a value, checking the children live. */
  <T> T await(String what, Duration timeout, Supplier<Optional<T>> condition)
      throws InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (true) {
      Optional<T> value = condition.get();
      if (value.isPresent()) {
        return value.get();
      }
      for (ExternalProcess process : processes) {
        if (!process.isAlive()) {
          throw new AssertionError(process.name() + " exited while waiting for " + what);
        }
      }
      if (System.nanoTime() > deadline) {
        throw new AssertionError("timed out after " + timeout + " waiting for " + what);
      }
      Thread.sleep(500);
    }
  }

  static String binary(String name) {
    for (String dir : System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)) {
      Path candidate = Path.of(dir, name);
      if (Files.isExecutable(candidate)) {
        return candidate.toString();
      }
    }
    return null;
  }

  static Path jar(String property) {
    String value = System.getProperty(property);
    if (value == null || !Files.isRegularFile(Path.of(value))) {
      throw new IllegalStateException(
          property + "=" + value + " is not a file; run the test through mvn verify");
    }
    return Path.of(value);
  }

  static int freePort() throws IOException {
    try (ServerSocket socket = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
      return socket.getLocalPort();
    }
  }

  /**
   * Healthy shop traffic in the background, in five-second runs of the load generator, until
   * closed.
   */
  static final class LoadLoop implements AutoCloseable {
    private final Thread thread;
    private volatile boolean running = true;
    private volatile String lastReport = "(none yet)";

    LoadLoop(String url) {
      thread =
          new Thread(
              () -> {
                while (running) {
                  try {
                    LoadReport report =
                        LoadGenerator.run(
                            LoadOptions.parse(
                                "--url",
                                url,
                                "--rate",
                                "40",
                                "--duration",
                                "5s",
                                "--warmup",
                                "0s",
                                "--mix",
                                "search=60,product=20,cart=15,checkout=5",
                                "--connections",
                                "8"));
                    lastReport = report.toText();
                  } catch (IOException e) {
                    lastReport = "load failed: " + e;
                  } catch (InterruptedException e) {
                    return;
                  }
                }
              },
              "alerting-load");
      thread.setDaemon(true);
      thread.start();
    }

    String lastReport() {
      return lastReport;
    }

    @Override
    public void close() {
      running = false;
      try {
        thread.join(30_000);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
  }
}
