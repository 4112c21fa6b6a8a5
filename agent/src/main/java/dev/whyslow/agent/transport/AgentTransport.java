package dev.whyslow.agent.transport;

import dev.whyslow.protocol.AgentStats;
import dev.whyslow.protocol.Run;
import dev.whyslow.protocol.Site;
import java.time.Duration;
import java.util.List;
import java.util.function.Supplier;

/**
 * The agent's connection to {@code whyslowd}: a bounded queue of finished runs shipped in batches
 * over one Netty connection on one daemon thread. The application never waits for it and never sees
 * its exceptions; what cannot be delivered is dropped and counted.
 */
public final class AgentTransport implements AutoCloseable {
  private final TransportSettings settings;

  public AgentTransport(
      TransportSettings settings, CommandListener listener, Supplier<AgentStats> stats) {
    this(settings, listener, stats, () -> {});
  }

  /**
   * @param onThreadStart runs first on the transport thread, e.g. to mark it as an agent thread the
   *     probes ignore
   */
  public AgentTransport(
      TransportSettings settings,
      CommandListener listener,
      Supplier<AgentStats> stats,
      Runnable onThreadStart) {
    this.settings = settings;
  }

  /** Starts connecting in the background. Never blocks, never throws. */
  public void start() {
    // TODO
  }

  /** Remembers sites; they are sent after every handshake and before any run queued after them. */
  public void announceSites(List<Site> sites) {
    // TODO
  }

  /** Queues a finished run without blocking; {@code false} when it was dropped (and counted). */
  public boolean offerRun(Run run) {
    return false;
  }

  /** Sends what is queued, waiting at most {@code timeout} in total, then closes. */
  public void flushAndClose(Duration timeout) {
    // TODO
  }

  @Override
  public void close() {
    flushAndClose(Duration.ZERO);
  }

  public TransportStats stats() {
    return new TransportStats(0, 0, 0, 0, 0, 0, false, "");
  }

  TransportSettings settings() {
    return settings;
  }
}
