package dev.whyslow.daemon.http;

import dev.whyslow.daemon.agent.AgentRegistry;
import dev.whyslow.daemon.agent.IngestQueue;
import dev.whyslow.storage.StoreStats;
import dev.whyslow.storage.WhyslowStore;
import io.netty.handler.codec.http.HttpResponseStatus;
import java.lang.System.Logger.Level;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;

/**
 * {@code GET /health}: 200 with a short status when the store answers, 503 with the reason when it
 * does not, so a load balancer or Kubernetes probe can act on it.
 */
public final class HealthHandler implements ApiRoutes {
  private static final System.Logger LOG = System.getLogger(HealthHandler.class.getName());

  private final WhyslowStore store;
  private final AgentRegistry agents;
  private final IngestQueue ingest;
  private final String version;
  private final Clock clock;
  private final Instant startedAt;

  public HealthHandler(
      WhyslowStore store, AgentRegistry agents, IngestQueue ingest, String version, Clock clock) {
    this.store = store;
    this.agents = agents;
    this.ingest = ingest;
    this.version = version;
    this.clock = clock;
    this.startedAt = clock.instant();
  }

  /** The body of {@code /health}. */
  public record Health(
      String status,
      String reason,
      String version,
      long uptimeSeconds,
      int agentsConnected,
      Long runs,
      Long sites,
      long ingestQueueBytes) {}

  @Override
  public void register(HttpRouter router) {
    router.get("/health", request -> health());
  }

  private ApiResponse health() {
    long uptime = Duration.between(startedAt, clock.instant()).toSeconds();
    try {
      StoreStats stats = store.stats();
      return ApiResponse.json(
          new Health(
              "ok",
              null,
              version,
              uptime,
              agents.size(),
              stats.runCount(),
              stats.siteCount(),
              ingest.queuedBytes()));
    } catch (RuntimeException e) {
      LOG.log(Level.WARNING, "health check: store failed", e);
      return ApiResponse.json(
          HttpResponseStatus.SERVICE_UNAVAILABLE,
          new Health(
              "unavailable",
              "store is not answering: " + e.getMessage(),
              version,
              uptime,
              agents.size(),
              null,
              null,
              ingest.queuedBytes()));
    }
  }
}
