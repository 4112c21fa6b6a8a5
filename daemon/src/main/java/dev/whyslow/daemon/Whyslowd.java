package dev.whyslow.daemon;

import dev.whyslow.daemon.agent.AgentChannelInitializer;
import dev.whyslow.daemon.agent.AgentRegistry;
import dev.whyslow.daemon.agent.AgentServerSettings;
import dev.whyslow.daemon.agent.ErrorReplies;
import dev.whyslow.daemon.agent.IngestQueue;
import dev.whyslow.daemon.agent.IngestWriter;
import dev.whyslow.daemon.config.ConfigException;
import dev.whyslow.daemon.config.ConfigKey;
import dev.whyslow.daemon.config.DaemonCommandLine;
import dev.whyslow.daemon.config.DaemonConfig;
import dev.whyslow.daemon.diagnosis.DiagnosisService;
import dev.whyslow.daemon.http.AgentsHandler;
import dev.whyslow.daemon.http.ApiRoutes;
import dev.whyslow.daemon.http.DiagnosisHandler;
import dev.whyslow.daemon.http.HealthHandler;
import dev.whyslow.daemon.http.HttpChannelInitializer;
import dev.whyslow.daemon.http.HttpRouter;
import dev.whyslow.daemon.http.LabelsHandler;
import dev.whyslow.daemon.http.MetricsHandler;
import dev.whyslow.daemon.http.RunsHandler;
import dev.whyslow.daemon.http.ServicesHandler;
import dev.whyslow.daemon.http.UnitsHandler;
import dev.whyslow.daemon.http.ViolationsHandler;
import dev.whyslow.daemon.metrics.DaemonMetrics;
import dev.whyslow.daemon.net.NettyServer;
import dev.whyslow.daemon.retention.RetentionTask;
import dev.whyslow.daemon.units.ThresholdService;
import dev.whyslow.storage.WhyslowStore;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.nio.NioIoHandler;
import io.netty.util.concurrent.DefaultEventExecutorGroup;
import io.netty.util.concurrent.DefaultThreadFactory;
import io.netty.util.concurrent.EventExecutorGroup;
import java.io.PrintStream;
import java.lang.System.Logger.Level;
import java.net.InetSocketAddress;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.ServiceLoader;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;

/**
 * whyslowd: the agent port, the HTTP API with {@code /metrics}, ingest into the store, unit
 * thresholds and retention. {@code main} is the command line; {@link #start(DaemonConfig)} is the
 * same daemon for tests, e.g. {@code Whyslowd.start(DaemonConfig.defaults().with("agent.bind",
 * "127.0.0.1:0").with("http.bind", "127.0.0.1:0"))}.
 */
public final class Whyslowd {
  private static final System.Logger LOG = System.getLogger(Whyslowd.class.getName());

  /** Exit code for bad configuration or arguments. */
  public static final int EXIT_CONFIG = 2;

  /** Exit code when the daemon cannot start (port taken, store unusable). */
  public static final int EXIT_START = 1;

  private Whyslowd() {}

  public static void main(String[] args) {
    Launch launch = launch(args, System.out, System.err);
    if (launch.daemon().isEmpty()) {
      System.exit(launch.exitCode());
    }
    RunningDaemon running = launch.daemon().get();
    Runtime.getRuntime().addShutdownHook(new Thread(running::close, "whyslowd-shutdown"));
    // Netty's event loop threads keep the JVM alive until the shutdown hook closes them.
  }

  /** What {@link #launch} did: a running daemon, or the exit code to leave with. */
  record Launch(Optional<RunningDaemon> daemon, int exitCode) {
    static Launch exit(int code) {
      return new Launch(Optional.empty(), code);
    }
  }

  /**
   * Parses {@code args} and starts the daemon; on failure prints one clear message to {@code err}
   * and returns the exit code ({@link #EXIT_CONFIG} or {@link #EXIT_START}).
   */
  static Launch launch(String[] args, PrintStream out, PrintStream err) {
    DaemonCommandLine commandLine;
    try {
      commandLine = DaemonCommandLine.parse(Arrays.asList(args));
    } catch (ConfigException e) {
      err.println("whyslowd: " + e.getMessage());
      return Launch.exit(EXIT_CONFIG);
    }
    if (commandLine.help()) {
      out.println(DaemonCommandLine.USAGE);
      return Launch.exit(0);
    }
    Builder builder = builder(commandLine.config());
    if (commandLine.demo()) {
      Optional<DemoLauncher> demo = ServiceLoader.load(DemoLauncher.class).findFirst();
      if (demo.isEmpty()) {
        err.println(
            "whyslowd: --demo: this build has no demo workload (no DemoLauncher on the class"
                + " path); start without --demo");
        return Launch.exit(EXIT_CONFIG);
      }
      builder.demo(demo.get());
    }
    try {
      RunningDaemon running = builder.start();
      out.println(
          "whyslowd "
              + BuildInfo.version()
              + " listening: agents on "
              + hostPort(running.agentAddress())
              + ", http on "
              + hostPort(running.httpAddress())
              + ", data in "
              + running.config().dataDir().toAbsolutePath().normalize());
      return new Launch(Optional.of(running), 0);
    } catch (RuntimeException e) {
      LOG.log(Level.DEBUG, "startup failed", e);
      err.println("whyslowd: cannot start: " + e.getMessage());
      return Launch.exit(EXIT_START);
    }
  }

  private static String hostPort(InetSocketAddress address) {
    return address.getHostString() + ":" + address.getPort();
  }

  /** Starts a daemon on the RocksDB store in {@code config.dataDir()}. */
  public static RunningDaemon start(DaemonConfig config) {
    return builder(config).start();
  }

  public static Builder builder(DaemonConfig config) {
    return new Builder(config);
  }

  /** Options beyond the configuration: another store, a clock, more API routes, the demo. */
  public static final class Builder {
    private final DaemonConfig config;
    private StoreOpener storeOpener = Stores::openRocksDb;
    private Clock clock = Clock.systemUTC();
    private final List<ApiRoutes> routes = new ArrayList<>();
    private DemoLauncher demo;

    private Builder(DaemonConfig config) {
      this.config = config;
    }

    /** Runs on {@code store} instead of opening RocksDB; the daemon closes it on shutdown. */
    public Builder store(WhyslowStore store) {
      this.storeOpener = c -> store;
      return this;
    }

    public Builder storeOpener(StoreOpener opener) {
      this.storeOpener = opener;
      return this;
    }

    public Builder clock(Clock value) {
      this.clock = value;
      return this;
    }

    /** Adds endpoints (diagnosis, thresholds, experiments, ...) to the HTTP API. */
    public Builder routes(ApiRoutes family) {
      routes.add(family);
      return this;
    }

    public Builder demo(DemoLauncher launcher) {
      this.demo = launcher;
      return this;
    }

    public RunningDaemon start() {
      WhyslowStore store = storeOpener.open(config);
      DaemonMetrics metrics = new DaemonMetrics(BuildInfo.version());
      EventLoopGroup boss =
          new MultiThreadIoEventLoopGroup(
              1, new DefaultThreadFactory("whyslowd-accept"), NioIoHandler.newFactory());
      EventLoopGroup workers =
          new MultiThreadIoEventLoopGroup(
              Math.max(2, Runtime.getRuntime().availableProcessors()),
              new DefaultThreadFactory("whyslowd-io"),
              NioIoHandler.newFactory());
      EventExecutorGroup apiExecutors =
          new DefaultEventExecutorGroup(2, new DefaultThreadFactory("whyslowd-api"));
      ScheduledExecutorService scheduler =
          Executors.newSingleThreadScheduledExecutor(
              r -> {
                Thread t = new Thread(r, "whyslowd-scheduler");
                t.setDaemon(true);
                return t;
              });
      IngestQueue ingest = new IngestQueue(config.ingestQueueBytes());
      AgentRegistry agents = new AgentRegistry();
      ThresholdService thresholds =
          new ThresholdService(store, agents, metrics.units(), config.thresholds(), clock);
      NettyServer agentServer = null;
      NettyServer httpServer = null;
      try {
        metrics.bindStore(store);
        metrics.units().agentsByService(agents::connectedByService);
        thresholds.start();
        metrics.gauge("whyslow.agents.connected", "Agents connected right now", agents::size);
        metrics.gauge(
            "whyslow.ingest.queue.bytes",
            "Estimated bytes of agent data waiting to be stored",
            ingest::queuedBytes);
        metrics.gauge(
            "whyslow.ingest.paused.connections",
            "Agent connections not read from because the store is behind",
            ingest::pausedChannels);
        ErrorReplies errors = new ErrorReplies(metrics);
        IngestWriter writer = new IngestWriter(store, ingest, metrics, agents, errors);
        AgentServerSettings settings =
            new AgentServerSettings(
                config.agentToken(),
                BuildInfo.version(),
                config.agentMaxFrameBytes(),
                config.agentMaxConnections());
        agentServer =
            NettyServer.start(
                "agents",
                ConfigKey.AGENT_BIND.key(),
                config.agentBind(),
                boss,
                workers,
                new AgentChannelInitializer(settings, metrics, agents, writer, errors, clock),
                true);
        HttpRouter router =
            new HttpRouter()
                .register(new HealthHandler(store, agents, ingest, BuildInfo.version(), clock))
                .register(new MetricsHandler(metrics))
                .register(new ServicesHandler(store, agents))
                .register(new RunsHandler(store))
                .register(new LabelsHandler(store))
                .register(new AgentsHandler(agents))
                .register(
                    new DiagnosisHandler(store, DiagnosisService.withDefaultModels(), thresholds))
                .register(new UnitsHandler(store, thresholds, clock))
                .register(new ViolationsHandler(store));
        routes.forEach(router::register);
        httpServer =
            NettyServer.start(
                "http",
                ConfigKey.HTTP_BIND.key(),
                config.httpBind(),
                boss,
                workers,
                new HttpChannelInitializer(
                    config.httpMaxBodyBytes(), router, config.apiToken(), apiExecutors),
                false);
        new RetentionTask(store, config.retention(), clock).schedule(scheduler);
        thresholds.schedule(scheduler);
      } catch (RuntimeException e) {
        if (agentServer != null) {
          agentServer.close();
        }
        ingest.close();
        scheduler.shutdownNow();
        apiExecutors.shutdownGracefully();
        workers.shutdownGracefully();
        boss.shutdownGracefully();
        metrics.close();
        store.close();
        throw e;
      }
      RunningDaemon running =
          new RunningDaemon(
              config,
              store,
              metrics,
              agents,
              ingest,
              thresholds,
              agentServer,
              httpServer,
              boss,
              workers,
              apiExecutors,
              scheduler);
      LOG.log(Level.INFO, "whyslowd started with {0}", config);
      if (demo != null) {
        try {
          running.closeFirst(demo.launch(running));
        } catch (Exception e) {
          running.close();
          throw new IllegalStateException("the demo workload failed to start: " + e, e);
        }
      }
      return running;
    }
  }
}
