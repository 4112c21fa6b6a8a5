package dev.whyslow.daemon.http;

import io.netty.handler.codec.http.HttpMethod;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * An HTTP request as the API handlers see it, independent of Netty's buffers.
 *
 * @param pathParams values of {@code {name}} segments of the matched route
 */
public record ApiRequest(
    HttpMethod method,
    String path,
    Map<String, List<String>> query,
    Map<String, String> pathParams,
    byte[] body) {

  /** The first value of a query parameter; empty if absent or blank. */
  public Optional<String> param(String name) {
    List<String> values = query.get(name);
    if (values == null || values.isEmpty() || values.get(0).isBlank()) {
      return Optional.empty();
    }
    return Optional.of(values.get(0).trim());
  }

  /** Refuses query parameters the endpoint does not know, so a typo never widens a query. */
  public void allowOnly(Set<String> names) {
    for (String name : query.keySet()) {
      if (!names.contains(name)) {
        throw ApiException.badRequest(
            "unknown query parameter '" + name + "'; allowed: " + new TreeSet<>(names));
      }
    }
  }

  public String pathParam(String name) {
    String value = pathParams.get(name);
    if (value == null) {
      throw new IllegalStateException("route has no path parameter {" + name + "}");
    }
    return value;
  }

  public ApiRequest withPathParams(Map<String, String> params) {
    return new ApiRequest(method, path, query, params, body);
  }
}
