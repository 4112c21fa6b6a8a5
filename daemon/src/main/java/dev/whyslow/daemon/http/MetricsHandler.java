package dev.whyslow.daemon.http;

import dev.whyslow.daemon.metrics.DaemonMetrics;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.prometheus.client.exporter.common.TextFormat;

/** {@code GET /metrics}: every daemon metric in Prometheus text format 0.0.4. */
public final class MetricsHandler implements ApiRoutes {
  private final DaemonMetrics metrics;

  public MetricsHandler(DaemonMetrics metrics) {
    this.metrics = metrics;
  }

  @Override
  public void register(HttpRouter router) {
    router.get(
        "/metrics",
        request ->
            ApiResponse.text(HttpResponseStatus.OK, TextFormat.CONTENT_TYPE_004, metrics.scrape()));
  }
}
