package dev.whyslow.examples.ops;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.whyslow.daemon.RunningDaemon;
import dev.whyslow.daemon.Whyslowd;
import dev.whyslow.daemon.config.DaemonConfig;
import java.io.IOException;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
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

  @TempDir static Path temp;
  final JsonHttp http = new JsonHttp();
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
    String prometheus = Monitoring.binary("prometheus");
    String alertmanager = Monitoring.binary("prometheus-alertmanager");
    assumeTrue(
        prometheus != null,
        "skipped: the prometheus binary is not on PATH (Debian package prometheus)");
    assumeTrue(
        alertmanager != null,
        "skipped: the prometheus-alertmanager binary is not on PATH"
            + " (Debian package prometheus-alertmanager)");
    assertThat(RULES).as("the rules file, from the examples module's directory").isRegularFile();

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
    int alertmanagerPort = Monitoring.freePort();
    processes.add(Monitoring.alertmanager(alertmanager, alertmanagerPort, receiver.url(), temp));
    awaitReady("http://127.0.0.1:" + alertmanagerPort);
    int prometheusPort = Monitoring.freePort();
    processes.add(
        Monitoring.prometheus(
            prometheus,
            prometheusPort,
            RULES,
            RULE_FOR,
            alertmanagerPort,
            daemon.httpPort(),
            temp));
    prometheusUrl = "http://127.0.0.1:" + prometheusPort;
    awaitReady(prometheusUrl);
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
    ExternalProcess shop = ExternalProcess.start("shop", command, temp);
    processes.add(shop);
    Pattern listening = Pattern.compile("shop listening on (\\d+)");
    shopUrl = "http://127.0.0.1:" + shop.awaitLine(listening, Duration.ofSeconds(60));
  }

  @Test
  void injectedSlowPathFiresTheAlertAndTheDiagnosisRanksTheRootCauseFirst() throws Exception {
    load = new LoadLoop(shopUrl, 40);
    String searchType =
        await(
            "a threshold for the search unit type of " + SERVICE,
            Duration.ofMinutes(4),
            this::searchTypeWithThreshold);
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
    assertThat(http.post(shopUrl + "/admin/bug?share=0.02").get("share").asDouble())
        .isEqualTo(0.02);

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
            daemon.httpUri()
                + "/api/v1/violations?service="
                + SERVICE
                + "&unitType="
                + URLEncoder.encode(searchType, StandardCharsets.UTF_8));

    JsonNode diagnosis =
        await(
            "a diagnosis of " + searchType + " with failing runs",
            Duration.ofMinutes(2),
            () -> {
              JsonNode report = http.get(diagnosisUrl(searchType, injected - 120_000));
              return report.path("failingRuns").asInt() >= 20
                      && report.path("predictors").size() > 0
                  ? Optional.of(report)
                  : Optional.empty();
            });
    JsonNode top = diagnosis.path("predictors").get(0);
    String report = diagnosis.toPrettyString();
    assertThat(top.path("className").asText())
        .as(report)
        .isEqualTo("dev.whyslow.examples.shop.CatalogSearch");
    assertThat(top.path("kind").asText()).as(report).isEqualTo("branch");
    assertThat(top.path("line").asInt()).as(report).isEqualTo(rootCauseLine());
    System.out.println("AlertingIT: alert " + alert + "\nAlertingIT: top predictor " + top);
  }

  /** The search unit type, once the daemon reports a threshold for it. */
  Optional<String> searchTypeWithThreshold() {
    JsonNode body = http.get(daemon.httpUri() + "/api/v1/thresholds?service=" + SERVICE);
    for (JsonNode threshold : body.path("thresholds")) {
      String type = threshold.path("unitType").asText();
      if (type.toLowerCase(Locale.ROOT).contains("search")
          && threshold.path("thresholdNanos").asLong() > 0) {
        return Optional.of(type);
      }
    }
    return Optional.empty();
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
  void stopEverything() {
    if (load != null) {
      load.close();
    }
    processes.forEach(ExternalProcess::close);
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
        String url = daemon.httpUri() + path + "?service=" + SERVICE;
        System.out.println("----- whyslowd " + path + " -----\n" + http.quietly(url));
      }
    }
    if (prometheusUrl != null) {
      System.out.println(
          "----- prometheus alerts -----\n" + http.quietly(prometheusUrl + "/api/v1/alerts"));
    }
  }

  <T> T await(String what, Duration timeout, Supplier<Optional<T>> condition)
      throws InterruptedException {
    return Await.until(what, timeout, processes, condition);
  }

  void awaitReady(String baseUrl) throws InterruptedException {
    await(
        baseUrl + "/-/ready",
        Duration.ofSeconds(60),
        () -> http.ready(baseUrl) ? Optional.of(true) : Optional.empty());
  }

  static Path jar(String property) {
    String value = System.getProperty(property);
    if (value == null || !Files.isRegularFile(Path.of(value))) {
      throw new IllegalStateException(
          property + "=" + value + " is not a file; run the test through mvn verify");
    }
    return Path.of(value);
  }
}
