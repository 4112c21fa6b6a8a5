package dev.whyslow.daemon.http;

/** Answers one route. Throws {@link ApiException} for requests it refuses. */
@FunctionalInterface
public interface ApiHandler {
  ApiResponse handle(ApiRequest request);
}
