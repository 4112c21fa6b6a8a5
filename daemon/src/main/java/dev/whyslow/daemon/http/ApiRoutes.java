package dev.whyslow.daemon.http;

/**
 * A family of endpoints (runs, labels, agents, ...) that adds its routes to the router. Later
 * resources such as diagnosis or experiments are one more implementation.
 */
public interface ApiRoutes {
  void register(HttpRouter router);
}
