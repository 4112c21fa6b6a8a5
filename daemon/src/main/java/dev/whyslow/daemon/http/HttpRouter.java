package dev.whyslow.daemon.http;

import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.QueryStringDecoder;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * Maps method and path to a handler. Patterns are literal segments and {@code {name}} segments,
 * e.g. {@code /api/v1/services/{service}/sites}; paths are matched raw and parameters decoded. A
 * known path with the wrong method is a 405 that lists the allowed methods; an unknown path is a
 * 404.
 */
public final class HttpRouter {
  private final List<Route> routes = new ArrayList<>();

  private record Route(HttpMethod method, String[] segments, ApiHandler handler) {}

  public HttpRouter get(String pattern, ApiHandler handler) {
    return add(HttpMethod.GET, pattern, handler);
  }

  public HttpRouter post(String pattern, ApiHandler handler) {
    return add(HttpMethod.POST, pattern, handler);
  }

  public HttpRouter add(HttpMethod method, String pattern, ApiHandler handler) {
    routes.add(new Route(method, split(pattern), handler));
    return this;
  }

  public HttpRouter register(ApiRoutes family) {
    family.register(this);
    return this;
  }

  public ApiResponse dispatch(ApiRequest request) {
    String[] path = split(request.path());
    Set<String> allowed = new TreeSet<>();
    for (Route route : routes) {
      Map<String, String> params = match(route.segments(), path);
      if (params == null) {
        continue;
      }
      if (route.method().equals(request.method())) {
        return route.handler().handle(request.withPathParams(params));
      }
      allowed.add(route.method().name());
    }
    if (!allowed.isEmpty()) {
      throw new ApiException(
          HttpResponseStatus.METHOD_NOT_ALLOWED,
          request.method() + " is not allowed on " + request.path() + "; use " + allowed);
    }
    throw ApiException.notFound(
        "no endpoint " + request.path() + "; see /api/v1/services, /api/v1/runs, /metrics");
  }

  /** Methods allowed on a path, for the {@code Allow} header of a 405. */
  public Set<String> allowedMethods(String path) {
    String[] segments = split(path);
    Set<String> allowed = new TreeSet<>();
    for (Route route : routes) {
      if (match(route.segments(), segments) != null) {
        allowed.add(route.method().name());
      }
    }
    return allowed;
  }

  private static Map<String, String> match(String[] pattern, String[] path) {
    if (pattern.length != path.length) {
      return null;
    }
    Map<String, String> params = new LinkedHashMap<>();
    for (int i = 0; i < pattern.length; i++) {
      String p = pattern[i];
      if (p.startsWith("{") && p.endsWith("}")) {
        if (path[i].isEmpty()) {
          return null;
        }
        params.put(p.substring(1, p.length() - 1), QueryStringDecoder.decodeComponent(path[i]));
      } else if (!p.equals(path[i])) {
        return null;
      }
    }
    return params;
  }

  private static String[] split(String path) {
    String trimmed = path;
    while (trimmed.endsWith("/") && trimmed.length() > 1) {
      trimmed = trimmed.substring(0, trimmed.length() - 1);
    }
    if (trimmed.startsWith("/")) {
      trimmed = trimmed.substring(1);
    }
    return trimmed.isEmpty() ? new String[0] : trimmed.split("/", -1);
  }
}
