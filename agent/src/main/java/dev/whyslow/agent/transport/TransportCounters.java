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
   * The agent's statistics as sent to the daemon: {@code base} comes from the rest of the agent and
   * the transport adds its own counts to runsSent, runsDropped, reconnects, bytesSent and
   * agentErrors. Adding (rather than overwriting) lets the rest of the agent report drops it makes
   * itself; it should leave the transport's fields at zero. A null base counts as all zeros.
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
        base.runsSent() + runsSent.sum(),
        base.runsDropped() + runsDropped.sum(),
        base.agentErrors() + errors.sum(),
        base.reconnects() + reconnects.sum(),
        base.bytesSent() + bytesSent.sum());
  }
}
