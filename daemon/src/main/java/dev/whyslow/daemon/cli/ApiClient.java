package dev.whyslow.daemon.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.ConnectException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.StringJoiner;

/**
 * Talks to whyslowd's HTTP API; refusals become {@link ServerException} with the server's words.
 */
final class ApiClient {
  private static final ObjectMapper MAPPER = new ObjectMapper();

  private final HttpClient http =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
  private final String server;
  private final Optional<String> token;

  ApiClient(String server, Optional<String> token) {
    this.server = server;
    this.token = token;
  }

  /** The raw JSON body of {@code GET path?query}. */
  String get(String path, Map<String, String> query) {
    StringJoiner q = new StringJoiner("&", "?", "").setEmptyValue("");
    query.forEach((k, v) -> q.add(encode(k) + "=" + encode(v)));
    return send(HttpRequest.newBuilder(uri(path + q)).GET());
  }

  /** The raw JSON body of {@code POST path} with a JSON body. */
  String post(String path, Object body) {
    String json;
    try {
      json = MAPPER.writeValueAsString(body);
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
    HttpRequest.Builder b =
        HttpRequest.newBuilder(uri(path))
            .header("Content-Type", "application/json")
            .POST(HttpRequest.BodyPublishers.ofString(json));
    token.ifPresent(t -> b.header("Authorization", "Bearer " + t));
    return send(b);
  }

  static JsonNode parse(String body) {
    try {
      return MAPPER.readTree(body);
    } catch (IOException e) {
      throw new ServerException("whyslowd answered something that is not JSON: " + e.getMessage());
    }
  }

  private URI uri(String pathAndQuery) {
    try {
      return URI.create(server + pathAndQuery);
    } catch (IllegalArgumentException e) {
      throw new UsageException(
          "--server '" + server + "' is not a URL like " + CliArgs.DEFAULT_SERVER);
    }
  }

  private String send(HttpRequest.Builder request) {
    HttpResponse<String> response;
    try {
      response =
          http.send(
              request.timeout(Duration.ofSeconds(60)).build(),
              HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
    } catch (ConnectException e) {
      throw new ServerException(
          "cannot reach whyslowd at "
              + server
              + " (connection refused); is it running? (--server)");
    } catch (IOException e) {
      throw new ServerException("cannot talk to whyslowd at " + server + ": " + e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new ServerException("interrupted");
    }
    if (response.statusCode() / 100 != 2) {
      String message = "HTTP " + response.statusCode();
      try {
        JsonNode error = MAPPER.readTree(response.body()).get("error");
        if (error != null) {
          message = error.asText() + " (HTTP " + response.statusCode() + ")";
        }
      } catch (IOException | RuntimeException e) {
        // not a JSON error body: keep the status
      }
      throw new ServerException(message);
    }
    return response.body();
  }

  /** One path segment, percent-encoded (a run id or a service name). */
  static String segment(String s) {
    return encode(s).replace("+", "%20");
  }

  private static String encode(String s) {
    return URLEncoder.encode(s, StandardCharsets.UTF_8);
  }
}
