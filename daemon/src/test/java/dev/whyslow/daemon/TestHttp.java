package dev.whyslow.daemon;

import com.fasterxml.jackson.databind.JsonNode;
import dev.whyslow.daemon.http.Json;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

/** A small HTTP client for the daemon's API in tests. */
public final class TestHttp {
  private final HttpClient client =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();
  private final URI base;

  public TestHttp(URI base) {
    this.base = base;
  }

  /** Status and body of one exchange. */
  public record Reply(int status, String body) {
    public JsonNode json() {
      try {
        return Json.MAPPER.readTree(body);
      } catch (IOException e) {
        throw new AssertionError("not JSON: " + body, e);
      }
    }
  }

  public Reply get(String path) throws Exception {
    return send(HttpRequest.newBuilder(base.resolve(path)).GET());
  }

  public Reply post(String path, String json, String token) throws Exception {
    HttpRequest.Builder b =
        HttpRequest.newBuilder(base.resolve(path))
            .header("Content-Type", "application/json")
            .POST(HttpRequest.BodyPublishers.ofString(json));
    if (token != null) {
      b.header("Authorization", "Bearer " + token);
    }
    return send(b);
  }

  private Reply send(HttpRequest.Builder b) throws Exception {
    HttpResponse<String> r =
        client.send(
            b.timeout(Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.ofString());
    return new Reply(r.statusCode(), r.body());
  }
}
