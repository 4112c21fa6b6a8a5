package dev.whyslow.agent.core;

import dev.whyslow.agent.bootstrap.Probes;
import dev.whyslow.agent.config.AgentConfig;
import dev.whyslow.agent.transport.AgentTransport;
import dev.whyslow.agent.transport.CommandListener;
import dev.whyslow.agent.transport.TransportSettings;
import dev.whyslow.agent.transport.TransportStats;
import dev.whyslow.protocol.AgentStats;
import dev.whyslow.protocol.Hello;
import dev.whyslow.protocol.Message;
import dev.whyslow.protocol.MessageCodec;
import dev.whyslow.protocol.Run;
import dev.whyslow.protocol.Site;
import dev.whyslow.protocol.Threshold;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * The core's side of the transport: creates it once (off the application's start-up path, since
 * resolving the instance name may block, and after {@code daemon.connect.delay}), holds what is
 * offered until then, passes the daemon's commands to the probes, and keeps counting drops even
 * when the transport could not be created at all.
 */
final class TransportLink implements UnitOutput {
  /** Most messages other than runs held before the transport exists. */
  static final int EARLY_MESSAGES = 1024;

  /** What reached the daemon and what did not. */
  record Counts(
      long runsSent,
      long runsDropped,
      long localDrops,
      long reconnects,
      long bytesSent,
      String lastError) {}

  private final AgentConfig config;
  private final AgentLog log;
  private final Supplier<AgentStats> stats;
  private volatile Consumer<List<Threshold>> thresholds = list -> {};
  // Written once under the lock in start(), read without it: calls into the transport never hold
  // our lock, so the transport may call the stats supplier from under its own locks.
  private volatile AgentTransport transport;
  private boolean started;
  private final AtomicLong localDrops = new AtomicLong();
  private volatile String localError = "";
  private volatile Runnable announcePending = () -> {};
  private final SamplingPlan sampling;

  /**
   * What was offered before the transport existed, handed to it once created; bounded like its
   * queue ({@code queue.capacity} runs, {@link #EARLY_MESSAGES} other messages). Guarded by itself,
   * never held while anything blocks.
   */
  private final ArrayDeque<Run> earlyRuns = new ArrayDeque<>();

  private final ArrayDeque<Message> earlyMessages = new ArrayDeque<>();

  /** Set, under {@link #earlyRuns}, when the transport could not be created: nothing is held. */
  private boolean creationFailed;

  TransportLink(
      AgentConfig config, AgentLog log, Supplier<AgentStats> stats, SamplingPlan sampling) {
    this.config = config;
    this.log = log;
    this.stats = stats;
    this.sampling = sampling;
  }

  /** Creates and starts the transport the first time; later calls do nothing. Never throws. */
  synchronized void start() {
    if (started) {
      return;
    }
    started = true;
    try {
      String instance = config.instance().isEmpty() ? InstanceName.resolve() : config.instance();
      String agentVersion = AgentRuntime.class.getPackage().getImplementationVersion();
      Hello hello =
          new Hello(
              MessageCodec.PROTOCOL_VERSION,
              config.service(),
              instance,
              config.version(),
              agentVersion == null ? "dev" : agentVersion,
              config.token());
      TransportSettings defaults =
          TransportSettings.defaults(config.daemonHost(), config.daemonPort(), hello);
      TransportSettings settings =
          new TransportSettings(
              config.daemonHost(),
              config.daemonPort(),
              hello,
              config.queueCapacity(),
              config.batchMaxRuns(),
              config.batchMaxDelayMillis(),
              defaults.statsIntervalMillis(),
              defaults.reconnectInitialMillis(),
              defaults.reconnectMaxMillis(),
              defaults.fatalBackoffMillis(),
              defaults.maxFrameBytes());
      AgentTransport created =
          new AgentTransport(settings, new Commands(log, this), stats, Probes::markAgentThread);
      created.start();
      handOver(created);
      log.info("agent started for service " + config.service() + " (" + instance + ")");
    } catch (Throwable t) {
      dropEarly();
      localError = String.valueOf(t);
      log.warn(
          "cannot start the connection to the daemon at "
              + config.daemonAddress()
              + " ("
              + t
              + "); runs are counted as dropped, the application is not affected");
    }
  }

  /**
   * Makes the transport the one everything goes to and gives it what was held, sites first: each
   * held run may mention sites the daemon has not been told about.
   */
  private void handOver(AgentTransport created) {
    List<Run> runs;
    List<Message> messages;
    synchronized (earlyRuns) {
      transport = created;
      runs = List.copyOf(earlyRuns);
      messages = List.copyOf(earlyMessages);
      earlyRuns.clear();
      earlyMessages.clear();
    }
    if (!runs.isEmpty()) {
      announcePending.run();
    }
    for (Message m : messages) {
      created.offerMessage(m);
    }
    for (Run r : runs) {
      created.offerRun(r);
    }
  }

  /** The transport could not be created: what was held is dropped, and counted. */
  private void dropEarly() {
    synchronized (earlyRuns) {
      creationFailed = true;
      localDrops.addAndGet(earlyRuns.size());
      earlyRuns.clear();
      earlyMessages.clear();
    }
  }

  /** Queues sites ahead of later runs; false when there is no transport to queue them on yet. */
  boolean announceSites(List<Site> sites) {
    AgentTransport t = transport;
    if (t == null) {
      return false;
    }
    t.announceSites(sites);
    return true;
  }

  /**
   * Runs before every run is queued: announces the sites the run may mention that the daemon has
   * not been told about yet. Set once, before the first run.
   */
  void beforeEachRun(Runnable announcePending) {
    this.announcePending = announcePending;
  }

  /** Where the daemon's thresholds go; set before {@link #start}. */
  void onThresholds(Consumer<List<Threshold>> consumer) {
    thresholds = consumer;
  }

  @Override
  public boolean offerMessage(Message message) {
    AgentTransport t = transport;
    if (t == null) {
      synchronized (earlyRuns) {
        t = transport;
        if (t == null) {
          boolean held =
              !creationFailed && message != null && earlyMessages.size() < EARLY_MESSAGES;
          if (held) {
            earlyMessages.addLast(message);
          }
          return held;
        }
      }
    }
    return t.offerMessage(message);
  }

  @Override
  public boolean offerRun(Run run) {
    AgentTransport t = transport;
    if (t == null) {
      synchronized (earlyRuns) {
        t = transport;
        if (t == null) {
          if (!creationFailed && run != null && earlyRuns.size() < config.queueCapacity()) {
            earlyRuns.addLast(run);
            return true;
          }
          localDrops.incrementAndGet();
          return false;
        }
      }
    }
    // The daemon refuses a whole batch of runs if one of them mentions a site it was never told
    // about, and the background thread announces new classes' sites only once a second.
    announcePending.run();
    return t.offerRun(run);
  }

  void flushAndClose(Duration timeout) {
    AgentTransport t = transport;
    if (t != null) {
      t.flushAndClose(timeout);
    }
  }

  Counts counts() {
    AgentTransport t = transport;
    long local = localDrops.get();
    if (t == null) {
      return new Counts(0, local, local, 0, 0, localError);
    }
    TransportStats s = t.stats();
    return new Counts(
        s.runsSent(), s.runsDropped() + local, local, s.reconnects(), s.bytesSent(), s.lastError());
  }

  /** The daemon's commands, applied to the probes. */
  private static final class Commands implements CommandListener {
    private final AgentLog log;
    private final TransportLink link;

    Commands(AgentLog log, TransportLink link) {
      this.log = log;
      this.link = link;
    }

    @Override
    public void onThresholds(List<Threshold> list) {
      link.thresholds.accept(list);
    }

    @Override
    public void onSamplingRate(double rate) {
      try {
        link.sampling.setRate(rate);
        log.info("sampling rate set to " + rate + " by the daemon");
      } catch (IllegalArgumentException e) {
        log.warn("the daemon sent an invalid sampling rate: " + e.getMessage() + "; ignored");
      }
    }

    @Override
    public void onEnabled(boolean enabled) {
      link.sampling.setEnabled(enabled);
      log.info(enabled ? "probes enabled by the daemon" : "probes disabled by the daemon");
    }
  }
}
