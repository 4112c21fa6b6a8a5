package dev.whyslow.daemon.http;

import static dev.whyslow.daemon.http.Requests.get;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.whyslow.daemon.agent.AgentRegistry;
import dev.whyslow.daemon.agent.IngestQueue;
import dev.whyslow.daemon.metrics.DaemonMetrics;
import dev.whyslow.storage.InMemoryStore;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.prometheus.client.exporter.common.TextFormat;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class HealthAndMetricsHandlerTest {
  private final InMemoryStore store = new InMemoryStore();
  private final DaemonMetrics metrics = new DaemonMetrics("1.2.3");
  private final IngestQueue ingest = new IngestQueue(1 << 20);
  private final HttpRouter router =
      new HttpRouter()
          .register(
              new HealthHandler(store, new AgentRegistry(), ingest, "1.2.3", Clock.systemUTC()))
          .register(new MetricsHandler(metrics));

  @AfterEach
  void close() {
    ingest.close();
    metrics.close();
    store.close();
  }

  @Test
  void healthIsOkWhileTheStoreAnswers() {
    JsonNode health = Requests.ok(router, get("/health"));
    assertThat(health.get("status").asText()).isEqualTo("ok");
    assertThat(health.get("version").asText()).isEqualTo("1.2.3");
    assertThat(health.get("runs").asLong()).isZero();
    assertThat(health.has("reason")).isFalse();
  }

  @Test
  void healthIsUnavailableWithTheReasonWhenTheStoreFails() {
    store.close();
    ApiResponse response = router.dispatch(get("/health"));
    assertThat(response.status()).isEqualTo(HttpResponseStatus.SERVICE_UNAVAILABLE);
    JsonNode health = Requests.json(response);
    assertThat(health.get("status").asText()).isEqualTo("unavailable");
    assertThat(health.get("reason").asText()).contains("store");
  }

  @Test
  void metricsAreServedInTextFormat004() {
    metrics.bindStore(store);
    ApiResponse response = router.dispatch(get("/metrics"));
    assertThat(response.contentType()).isEqualTo(TextFormat.CONTENT_TYPE_004);
    assertThat(new String(response.body(), StandardCharsets.UTF_8))
        .contains("# TYPE whyslow_ingest_runs_total counter")
        .contains("whyslow_build_info{version=\"1.2.3\",} 1.0")
        .contains("whyslow_store_runs 0.0");
  }
}
