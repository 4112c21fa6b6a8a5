package dev.whyslow.examples.ops;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * The receiving end of an Alertmanager webhook, in the test's JVM: keeps every alert of every
 * notification (Alertmanager's JSON, {@code "version": "4"}).
 */
final class WebhookReceiver implements AutoCloseable {
  private static final ObjectMapper JSON = new ObjectMapper();

  private final HttpServer server;
  private final List<JsonNode> alerts = new CopyOnWriteArrayList<>();
  private final List<String> bodies = new CopyOnWriteArrayList<>();

  WebhookReceiver() throws IOException {
    server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 16);
    server.createContext(
        "/alerts",
        exchange -> {
          try (InputStream in = exchange.getRequestBody()) {
            String body = new String(in.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
            bodies.add(body);
            JsonNode notification = JSON.readTree(body);
            for (JsonNode alert : notification.path("alerts")) {
              alerts.add(alert);
            }
            exchange.sendResponseHeaders(200, -1);
          } catch (IOException | RuntimeException e) {
            exchange.sendResponseHeaders(400, -1);
          } finally {
            exchange.close();
          }
        });
    server.start();
  }

  String url() {
    return "http://127.0.0.1:" + server.getAddress().getPort() + "/alerts";
  }

  /** Firing alerts received so far with this name and these label values. */
  List<JsonNode> firing(String alertName, String... labelPairs) {
    List<JsonNode> found = new ArrayList<>();
    for (JsonNode alert : alerts) {
      JsonNode labels = alert.path("labels");
      boolean match =
          alert.path("status").asText().equals("firing")
              && labels.path("alertname").asText().equals(alertName);
      for (int i = 0; i + 1 < labelPairs.length; i += 2) {
        match &= labels.path(labelPairs[i]).asText().equals(labelPairs[i + 1]);
      }
      if (match) {
        found.add(alert);
      }
    }
    return found;
  }

  /** Every notification body received, for the log of a failed test. */
  List<String> bodies() {
    return List.copyOf(bodies);
  }

  @Override
  public void close() {
    server.stop(0);
  }
}
