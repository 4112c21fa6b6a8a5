package dev.whyslow.agent.transport;

import dev.whyslow.protocol.AgentStats;
import dev.whyslow.protocol.Message;
import dev.whyslow.protocol.Run;
import dev.whyslow.protocol.Site;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.nio.NioIoHandler;
import java.time.Duration;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Supplier;

/**
 * The agent's connection to {@code whyslowd}: a bounded queue of finished runs shipped in batches
 * over one Netty connection on one daemon thread ({@value TransportThreadFactory#THREAD_NAME}). The
 * application never waits for it and never sees its exceptions; what cannot be delivered is dropped
 * and counted in {@link #stats()}.
 *
 * <pre>{@code
 * AgentTransport transport = new AgentTransport(settings, listener, agentStats, Probes::markAgentThread);
 * transport.start();
 * transport.announceSites(sitesOfNewClass);   // before runs that mention them
 * transport.offerRun(run);                    // false: dropped and counted
 * transport.flushAndClose(Duration.ofSeconds(2));   // in the shutdown hook
 * }</pre>
 */
public final class AgentTransport implements AutoCloseable {
  private static final long CLOSE_RESERVE_NANOS = TimeUnit.MILLISECONDS.toNanos(50);

  private final TransportSettings settings;
  private final CommandListener listener;
  private final Supplier<AgentStats> agentStats;
  private final Runnable onThreadStart;
  private final OnceLog log;
  private final long handshakeTimeoutMillis;
  private final TransportCounters counters = new TransportCounters();
  private final Outbox outbox;
  private final AtomicBoolean started = new AtomicBoolean();
  private final AtomicBoolean closed = new AtomicBoolean();
  private volatile boolean dropReported;
  private volatile EventLoopGroup group;
  private volatile Connector connector;

  /**
   * @param settings where and how to send
   * @param listener receives the daemon's commands on the transport thread
   * @param agentStats the rest of the agent's counters, sent every {@code statsIntervalMillis}. It
   *     may copy runsSent, runsDropped, reconnects and bytesSent from {@link #stats()} or leave
   *     them at zero: the transport sends the larger of its own count and the supplier's for each.
   *     The transport's own caught errors are added to agentErrors.
   */
  public AgentTransport(
      TransportSettings settings, CommandListener listener, Supplier<AgentStats> agentStats) {
    this(settings, listener, agentStats, () -> {});
  }

  /**
   * @param onThreadStart runs first on the transport thread, e.g. to mark it as an agent thread the
   *     probes ignore
   */
  public AgentTransport(
      TransportSettings settings,
      CommandListener listener,
      Supplier<AgentStats> agentStats,
      Runnable onThreadStart) {
    this(
        settings,
        listener,
        agentStats,
        onThreadStart,
        OnceLog.stderr(),
        HandshakeHandler.DEFAULT_TIMEOUT_MILLIS);
  }

  AgentTransport(
      TransportSettings settings,
      CommandListener listener,
      Supplier<AgentStats> agentStats,
      Runnable onThreadStart,
      OnceLog log,
      long handshakeTimeoutMillis) {
    this.settings = settings;
    this.listener = listener == null ? CommandListener.NOOP : listener;
    this.agentStats = agentStats == null ? () -> null : agentStats;
    this.onThreadStart = onThreadStart == null ? () -> {} : onThreadStart;
    this.log = log;
    this.handshakeTimeoutMillis = handshakeTimeoutMillis;
    this.outbox = new Outbox(settings.queueCapacity(), settings.batchMaxRuns());
  }

  /**
   * Starts connecting in the background. Never blocks, never throws; a second call does nothing.
   */
  public void start() {
    if (closed.get() || !started.compareAndSet(false, true)) {
      return;
    }
    try {
      QuietNettyLogging.installIfRelocated(log);
      EventLoopGroup loopGroup =
          new MultiThreadIoEventLoopGroup(
              1, new TransportThreadFactory(onThreadStart, log), NioIoHandler.newFactory());
      group = loopGroup;
      Connector c =
          new Connector(
              settings,
              loopGroup.next(),
              events ->
                  new TransportInitializer(
                      settings,
                      outbox,
                      counters,
                      log,
                      listener,
                      agentStats,
                      events,
                      handshakeTimeoutMillis),
              outbox,
              counters,
              log,
              new Backoff(
                  settings.reconnectInitialMillis(),
                  settings.reconnectMaxMillis(),
                  new SplittableRandom()));
      connector = c;
      c.start();
    } catch (Throwable t) {
      String text = "could not start the transport to " + settings.address() + ": " + t;
      counters.error(text);
      log.report("start", text + "; runs will be dropped and counted");
    }
  }

  /**
   * Remembers sites. They are sent after every handshake, and before any run queued after this
   * call, so announce a class's sites before queueing runs that mention them.
   */
  public void announceSites(List<Site> sites) {
    try {
      if (sites != null && !sites.isEmpty()) {
        outbox.addSites(sites);
      }
    } catch (Throwable t) {
      counters.error("announcing sites failed: " + t);
    }
  }

  /**
   * Queues a finished run without blocking. Returns {@code false} when the run was dropped and
   * counted: the queue is full (the daemon is down or slow) or the transport is closed.
   */
  public boolean offerRun(Run run) {
    try {
      if (run != null && !closed.get() && outbox.offer(run)) {
        return true;
      }
      counters.runsDropped.increment();
      if (!dropReported && run != null) {
        dropReported = true;
        log.report(
            "queue-full",
            (closed.get()
                    ? "transport closed"
                    : "run queue full (" + settings.queueCapacity() + ")")
                + ": dropping new runs while the daemon at "
                + settings.address()
                + " is unreachable or slow; drops are counted in the agent's statistics");
      }
      return false;
    } catch (Throwable t) {
      counters.error("queueing a run failed: " + t);
      return false;
    }
  }

  /**
   * Queues a message other than a run (unit statistics, violations, unit types) without blocking.
   * Returns {@code false} when it was dropped: too many wait, or the transport is closed.
   */
  public boolean offerMessage(Message message) {
    try {
      return message != null && !closed.get() && outbox.offerMessage(message);
    } catch (Throwable t) {
      counters.error("queueing a message failed: " + t);
      return false;
    }
  }

  /**
   * Sends what is queued and closes, for the JVM's shutdown hook. Waits for the daemon (connecting
   * if need be) and for the writes to complete, but never longer than {@code timeout} in total;
   * then shuts the event loop down without a quiet period. Runs still queued count as dropped, and
   * if any run was dropped one summary line goes to stderr.
   */
  public void flushAndClose(Duration timeout) {
    if (!closed.compareAndSet(false, true)) {
      return;
    }
    try {
      long timeoutNanos = timeout == null || timeout.isNegative() ? 0 : timeout.toNanos();
      long deadline = System.nanoTime() + timeoutNanos;
      // Closing costs a little too (the first use of some JDK and Netty code in a cold JVM), so the
      // wait for the daemon leaves a slice of the timeout for it.
      long flushDeadline = deadline - Math.min(timeoutNanos / 10, CLOSE_RESERVE_NANOS);
      Connector c = connector;
      boolean connected = false;
      boolean interrupted = false;
      if (c != null) {
        interrupted = !await(c.requestFlush(), flushDeadline);
        connected = counters.connected;
        interrupted |= !await(c.stop(), interrupted ? 0 : deadline);
      }
      EventLoopGroup g = group;
      if (g != null) {
        long remaining = interrupted ? 0 : Math.max(0, remainingMillis(deadline));
        g.shutdownGracefully(0, remaining, TimeUnit.MILLISECONDS);
        try {
          g.awaitTermination(remaining, TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
          interrupted = true;
        }
      }
      counters.runsDropped.add(outbox.drainAll());
      outbox.drainMessages();
      summarize(connected);
      if (interrupted) {
        Thread.currentThread().interrupt();
      }
    } catch (Throwable t) {
      counters.error("closing the transport failed: " + t);
      log.report("close", "closing the transport failed: " + t);
    }
  }

  /** Same as {@code flushAndClose(Duration.ZERO)}: closes without waiting for the daemon. */
  @Override
  public void close() {
    flushAndClose(Duration.ZERO);
  }

  /** A snapshot of the transport's counters; cheap, callable from any thread. */
  public TransportStats stats() {
    return counters.snapshot(outbox.size());
  }

  /** The delay chosen for the latest scheduled reconnect, or -1; for tests. */
  long lastReconnectDelayMillis() {
    Connector c = connector;
    return c == null ? -1 : c.lastDelayMillis();
  }

  private void summarize(boolean connected) {
    long dropped = counters.runsDropped.sum();
    if (dropped == 0) {
      return;
    }
    if (connected) {
      log.always(
          "sent "
              + counters.runsSent.sum()
              + " runs to daemon at "
              + settings.address()
              + "; dropped "
              + dropped
              + " runs (queue full, connection lost or shutdown timeout)");
    } else {
      log.always("daemon unreachable at " + settings.address() + "; dropped " + dropped + " runs");
    }
  }

  /** Waits until {@code deadline} (System.nanoTime) at most; false if interrupted. */
  private static boolean await(CompletableFuture<Void> future, long deadline) {
    try {
      future.get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
    } catch (TimeoutException | ExecutionException e) {
      // Out of time, or nothing more to wait for: the caller closes what is left.
    } catch (InterruptedException e) {
      return false;
    }
    return true;
  }

  private static long remainingMillis(long deadline) {
    return TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime());
  }
}
