package dev.whyslow.agent.transport;

import static org.assertj.core.api.Assertions.assertThat;

import dev.whyslow.protocol.AgentStats;
import org.junit.jupiter.api.Test;

class TransportCountersTest {
  @Test
  void theTransportFillsInItsCountsWhenTheAgentLeavesThemAtZero() {
    TransportCounters counters = counters();

    AgentStats merged = counters.merge(new AgentStats(99, 1, 2, 3, 4, 5, 0, 0, 7, 0, 0), 1_000);

    assertThat(merged).isEqualTo(new AgentStats(99, 1, 2, 3, 4, 5, 10, 2, 8, 3, 500));
  }

  @Test
  void countsTheAgentCopiedFromTheTransportAreNotCountedTwice() {
    TransportCounters counters = counters();

    // The agent copied stats() and added 4 drops of its own.
    AgentStats merged = counters.merge(new AgentStats(99, 1, 2, 3, 4, 5, 10, 6, 7, 3, 500), 1_000);

    assertThat(merged).isEqualTo(new AgentStats(99, 1, 2, 3, 4, 5, 10, 6, 8, 3, 500));
  }

  @Test
  void withoutAgentStatisticsTheTransportsOwnAreSentWithTheCurrentTime() {
    TransportCounters counters = new TransportCounters();
    counters.runsSent.add(4);

    assertThat(counters.merge(null, 1_234))
        .isEqualTo(new AgentStats(1_234, 0, 0, 0, 0, 0, 4, 0, 0, 0, 0));
  }

  @Test
  void theSnapshotShowsTheLastError() {
    TransportCounters counters = new TransportCounters();
    counters.error("first");
    counters.error("second");
    counters.connected = true;

    assertThat(counters.snapshot(7))
        .isEqualTo(new TransportStats(0, 0, 0, 0, 2, 7, true, "second"));
  }

  private static TransportCounters counters() {
    TransportCounters counters = new TransportCounters();
    counters.runsSent.add(10);
    counters.runsDropped.add(2);
    counters.reconnects.add(3);
    counters.bytesSent.add(500);
    counters.error("boom");
    return counters;
  }
}
