package dev.whyslow.examples.ops;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

/** JSON over HTTP for operations tests: any failure is an {@link AssertionError} with the URL. */
final class JsonHttp {
  private static final ObjectMapper JSON = new ObjectMapper();

  private final HttpClient client = HttpClient.newHttpClient();

  JsonNode get(String url) {
    return send(HttpRequest.newBuilder(URI.create(url)).GET(), url);
  }

  JsonNode post(String url) {
    return send(
        HttpRequest.newBuilder(URI.create(url)).POST(HttpRequest.BodyPublishers.noBody()), url);
  }

  /** The body of {@code GET url}, or why there is none, for a failed test's log. */
  String quietly(String url) {
    try {
      return get(url).toString();
    } catch (AssertionError e) {
      return e.getMessage();
    }
  }

  /** Whether {@code baseUrl/-/ready} answers 200, as Prometheus and Alertmanager do once ready. */
  boolean ready(String baseUrl) {
    try {
      HttpResponse<Void> r =
          client.send(
              HttpRequest.newBuilder(URI.create(baseUrl + "/-/ready")).build(),
              HttpResponse.BodyHandlers.discarding());
      return r.statusCode() == 200;
    } catch (IOException e) {
      return false;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }

  private JsonNode send(HttpRequest.Builder builder, String url) {
    String what = builder.build().method() + " " + url;
    try {
      HttpResponse<String> r =
          client.send(
              builder.timeout(Duration.ofSeconds(30)).build(),
              HttpResponse.BodyHandlers.ofString());
      if (r.statusCode() != 200) {
        throw new AssertionError(what + " answered " + r.statusCode() + ": " + r.body());
      }
      return JSON.readTree(r.body());
    } catch (IOException e) {
      throw new AssertionError(what + " failed: " + e, e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError(what + " interrupted", e);
    }
  }
}
