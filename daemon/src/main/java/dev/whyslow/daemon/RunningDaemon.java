package dev.whyslow.daemon;

import dev.whyslow.daemon.agent.AgentRegistry;
import dev.whyslow.daemon.agent.IngestQueue;
import dev.whyslow.daemon.config.DaemonConfig;
import dev.whyslow.daemon.metrics.DaemonMetrics;
import dev.whyslow.daemon.net.NettyServer;
import dev.whyslow.daemon.units.ThresholdService;
import dev.whyslow.storage.WhyslowStore;
import io.netty.channel.EventLoopGroup;
import io.netty.util.concurrent.EventExecutorGroup;
import java.lang.System.Logger.Level;
import java.net.InetSocketAddress;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * A started whyslowd: its bound addresses (port 0 in the configuration becomes the real port here)
 * and its parts, for tests and the demo. {@link #close()} shuts down in order: stop accepting,
 * close agent connections, drain the ingest queue, stop HTTP, close the store.
 */
public final class RunningDaemon implements AutoCloseable {
  private static final System.Logger LOG = System.getLogger(RunningDaemon.class.getName());

  private final DaemonConfig config;
  private final WhyslowStore store;
  private final DaemonMetrics metrics;
  private final AgentRegistry agents;
  private final IngestQueue ingest;
  private final ThresholdService thresholds;
  private final NettyServer agentServer;
  private final NettyServer httpServer;
  private final EventLoopGroup boss;
  private final EventLoopGroup workers;
  private final EventExecutorGroup apiExecutors;
  private final ScheduledExecutorService scheduler;
  private final List<AutoCloseable> extras = new ArrayList<>();
  private final AtomicBoolean closed = new AtomicBoolean();

  RunningDaemon(
      DaemonConfig config,
      WhyslowStore store,
      DaemonMetrics metrics,
      AgentRegistry agents,
      IngestQueue ingest,
      ThresholdService thresholds,
      NettyServer agentServer,
      NettyServer httpServer,
      EventLoopGroup boss,
      EventLoopGroup workers,
      EventExecutorGroup apiExecutors,
      ScheduledExecutorService scheduler) {
    this.config = config;
    this.store = store;
    this.metrics = metrics;
    this.agents = agents;
    this.ingest = ingest;
    this.thresholds = thresholds;
    this.agentServer = agentServer;
    this.httpServer = httpServer;
    this.boss = boss;
    this.workers = workers;
    this.apiExecutors = apiExecutors;
    this.scheduler = scheduler;
  }

  public DaemonConfig config() {
    return config;
  }

  public InetSocketAddress agentAddress() {
    return agentServer.address();
  }

  public int agentPort() {
    return agentAddress().getPort();
  }

  public InetSocketAddress httpAddress() {
    return httpServer.address();
  }

  public int httpPort() {
    return httpAddress().getPort();
  }

  /** Base URI of the HTTP API, e.g. {@code http://127.0.0.1:9721}. */
  public URI httpUri() {
    InetSocketAddress a = httpAddress();
    String host = a.getAddress().isAnyLocalAddress() ? "127.0.0.1" : a.getHostString();
    if (host.contains(":")) {
      host = "[" + host + "]";
    }
    return URI.create("http://" + host + ":" + a.getPort());
  }

  public WhyslowStore store() {
    return store;
  }

  public DaemonMetrics metrics() {
    return metrics;
  }

  public AgentRegistry agents() {
    return agents;
  }

  public IngestQueue ingest() {
    return ingest;
  }

  public ThresholdService thresholds() {
    return thresholds;
  }

  /** Something to close with the daemon, before its servers stop (e.g. the demo workload). */
  void closeFirst(AutoCloseable extra) {
    extras.add(extra);
  }

  @Override
  public void close() {
    if (!closed.compareAndSet(false, true)) {
      return;
    }
    for (AutoCloseable extra : extras) {
      quietly("demo", extra);
    }
    quietly("agent listener", agentServer::stopAccepting);
    quietly("http listener", httpServer::stopAccepting);
    quietly("agent connections", agentServer);
    quietly("ingest queue", ingest);
    scheduler.shutdownNow();
    quietly("http connections", httpServer);
    quietly(
        "event loops",
        () -> {
          apiExecutors.shutdownGracefully(0, 2, TimeUnit.SECONDS).syncUninterruptibly();
          workers.shutdownGracefully(0, 2, TimeUnit.SECONDS).syncUninterruptibly();
          boss.shutdownGracefully(0, 2, TimeUnit.SECONDS).syncUninterruptibly();
        });
    quietly("metrics", metrics);
    quietly("store", store);
  }

  private static void quietly(String what, AutoCloseable step) {
    try {
      step.close();
    } catch (Exception e) {
      LOG.log(Level.ERROR, "shutdown: closing " + what + " failed", e);
    }
  }
}
