package dev.whyslow.agent.transport;

import dev.whyslow.protocol.AgentStats;
import java.util.concurrent.atomic.LongAdder;

/**
 * The transport's counters, written from application threads (drops) and the transport thread
 * (everything else). {@link LongAdder} keeps contended increments from application threads cheap.
 */
final class TransportCounters {
  final LongAdder runsSent = new LongAdder();
  final LongAdder runsDropped = new LongAdder();
  final LongAdder reconnects = new LongAdder();
  final LongAdder bytesSent = new LongAdder();
  final LongAdder errors = new LongAdder();
  volatile boolean connected;
  volatile String lastError = "";

  /** Counts a caught exception or protocol problem and remembers it for {@link TransportStats}. */
  void error(String what) {
    errors.increment();
    lastError = what;
  }

  TransportStats snapshot(int queuedRuns) {
    return new TransportStats(
        runsSent.sum(),
        runsDropped.sum(),
        reconnects.sum(),
        bytesSent.sum(),
        errors.sum(),
        queuedRuns,
        connected,
        lastError);
  }

  /**
   * The agent's statistics as sent to the daemon. {@code base} comes from the rest of the agent,
   * which may already copy runsSent, runsDropped, reconnects and bytesSent from {@link
   * AgentTransport#stats()} (plus drops of its own) or leave them at zero: each of those four is
   * the larger of the base value and the transport's, which is right either way. The transport's
   * caught errors are added to agentErrors, since the base cannot see them. A null base counts as
   * zeros.
   */
  AgentStats merge(AgentStats base, long nowEpochMillis) {
    if (base == null) {
      base = new AgentStats(nowEpochMillis, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0);
    }
    return new AgentStats(
        base.timestampEpochMillis(),
        base.samplesRecorded(),
        base.sitesRegistered(),
        base.classesInstrumented(),
        base.instrumentationErrors(),
        base.runsRecorded(),
        Math.max(base.runsSent(), runsSent.sum()),
        Math.max(base.runsDropped(), runsDropped.sum()),
        base.agentErrors() + errors.sum(),
        Math.max(base.reconnects(), reconnects.sum()),
        Math.max(base.bytesSent(), bytesSent.sum()));
  }
}
