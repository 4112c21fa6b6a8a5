package dev.whyslow.examples.ops;

import java.io.File;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * Starts real Prometheus and Alertmanager processes on loopback for operations tests, each with a
 * configuration written into the test's directory.
 */
final class Monitoring {
  private Monitoring() {}

  /** The executable called {@code name} on the PATH, or null. */
  static String binary(String name) {
    for (String dir : System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)) {
      Path candidate = Path.of(dir, name);
      if (Files.isExecutable(candidate)) {
        return candidate.toString();
      }
    }
    return null;
  }

  static int freePort() throws IOException {
    try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      return socket.getLocalPort();
    }
  }

  /** Alertmanager routing every alert at once (1 s group wait) to {@code webhookUrl}. */
  static ExternalProcess alertmanager(String binary, int port, String webhookUrl, Path dir)
      throws IOException {
    Path config = dir.resolve("alertmanager.yml");
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
            "      - url: " + webhookUrl,
            ""));
    return ExternalProcess.start(
        "alertmanager",
        List.of(
            binary,
            "--config.file=" + config,
            "--storage.path=" + Files.createDirectories(dir.resolve("alertmanager-data")),
            "--web.listen-address=127.0.0.1:" + port,
            "--cluster.listen-address="),
        dir);
  }

  /**
   * Prometheus scraping whyslowd every second, evaluating {@code rules} every second with every
   * {@code for:} duration replaced by {@code forDuration} (the only change made to the rules), and
   * sending alerts to the Alertmanager on {@code alertmanagerPort}.
   */
  static ExternalProcess prometheus(
      String binary,
      int port,
      Path rules,
      String forDuration,
      int alertmanagerPort,
      int daemonHttpPort,
      Path dir)
      throws IOException {
    String shortened =
        Files.readString(rules)
            .replaceAll("(?m)^([ \\t]+for:)[ \\t]*\\S+[ \\t]*$", "$1 " + forDuration);
    Path rulesCopy = dir.resolve(rules.getFileName());
    Files.writeString(rulesCopy, shortened);
    Path config = dir.resolve("prometheus.yml");
    Files.writeString(
        config,
        String.join(
            "\n",
            "global:",
            "  scrape_interval: 1s",
            "  evaluation_interval: 1s",
            "rule_files: [" + rulesCopy + "]",
            "alerting:",
            "  alertmanagers:",
            "    - static_configs:",
            "        - targets: ['127.0.0.1:" + alertmanagerPort + "']",
            "scrape_configs:",
            "  - job_name: whyslowd",
            "    static_configs:",
            "      - targets: ['127.0.0.1:" + daemonHttpPort + "']",
            ""));
    return ExternalProcess.start(
        "prometheus",
        List.of(
            binary,
            "--config.file=" + config,
            "--storage.tsdb.path=" + Files.createDirectories(dir.resolve("prometheus-data")),
            "--web.listen-address=127.0.0.1:" + port),
        dir);
  }
}
