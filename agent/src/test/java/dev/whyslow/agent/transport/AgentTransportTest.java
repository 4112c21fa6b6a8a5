package dev.whyslow.agent.transport;

import static dev.whyslow.agent.transport.Conditions.await;
import static org.assertj.core.api.Assertions.assertThat;

import dev.whyslow.protocol.AgentStats;
import dev.whyslow.protocol.ErrorCode;
import dev.whyslow.protocol.ErrorMessage;
import dev.whyslow.protocol.Hello;
import dev.whyslow.protocol.Message;
import dev.whyslow.protocol.MessageCodec;
import dev.whyslow.protocol.Run;
import dev.whyslow.protocol.RunBatch;
import dev.whyslow.protocol.SetEnabled;
import dev.whyslow.protocol.SetSamplingRate;
import dev.whyslow.protocol.SiteBatch;
import java.io.IOException;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The transport against a real socket and {@link FakeDaemon}. */
class AgentTransportTest {
  private final RecordingLog log = new RecordingLog();
  private final List<Object> commands = new CopyOnWriteArrayList<>();
  private final CommandListener listener =
      new CommandListener() {
        @Override
        public void onSamplingRate(double rate) {
          commands.add(rate);
        }

        @Override
        public void onEnabled(boolean enabled) {
          commands.add(enabled);
        }
      };
  private final List<AutoCloseable> closeAfter = new ArrayList<>();

  @AfterEach
  void closeAll() throws Exception {
    for (AutoCloseable c : closeAfter) {
      c.close();
    }
  }

  private FakeDaemon daemon() throws InterruptedException {
    FakeDaemon daemon = FakeDaemon.start();
    closeAfter.add(daemon);
    return daemon;
  }

  private AgentTransport transport(TransportSettings settings) {
    return transport(settings, () -> null, () -> {});
  }

  private AgentTransport transport(
      TransportSettings settings, java.util.function.Supplier<AgentStats> stats, Runnable hook) {
    AgentTransport transport = new AgentTransport(settings, listener, stats, hook, log.log, 60_000);
    closeAfter.add(0, transport);
    return transport;
  }

  /** A loopback port nobody listens on. */
  private static int closedPort() throws IOException {
    try (ServerSocket socket = new ServerSocket(0)) {
      return socket.getLocalPort();
    }
  }

  @Test
  void handshakeComesFirstThenSitesThenRunsInBatches() throws Exception {
    FakeDaemon daemon = daemon();
    AgentTransport transport = transport(TestData.settings(daemon.port()));
    transport.announceSites(TestData.sites(1, 3));
    for (int i = 1; i <= 25; i++) {
      assertThat(transport.offerRun(TestData.run(i))).isTrue();
    }
    transport.start();

    await("25 runs at the daemon", () -> daemon.runs().size() == 25);
    List<Message> received = daemon.connection(0).received;
    assertThat(received.get(0)).isInstanceOf(Hello.class);
    assertThat(((Hello) received.get(0)).token()).isEqualTo("secret");
    assertThat(received.get(1)).isInstanceOf(SiteBatch.class);
    assertThat(((SiteBatch) received.get(1)).sites()).isEqualTo(TestData.sites(1, 3));
    List<RunBatch> batches = daemon.connection(0).received(RunBatch.class);
    assertThat(batches).hasSizeGreaterThanOrEqualTo(3);
    assertThat(batches).allSatisfy(b -> assertThat(b.runs()).hasSizeBetween(1, 10));
    assertThat(daemon.runs()).extracting(Run::sequence).containsExactly(range(1, 25));
    await("runs counted as sent", () -> transport.stats().runsSent() == 25);
    TransportStats stats = transport.stats();
    assertThat(stats.connected()).isTrue();
    assertThat(stats.runsDropped()).isZero();
    assertThat(stats.bytesSent()).isPositive();
    assertThat(stats.queuedRuns()).isZero();
  }

  @Test
  void runsQueuedWhileConnectedGoOutWithinTheBatchDelay() throws Exception {
    FakeDaemon daemon = daemon();
    AgentTransport transport = transport(TestData.settings(daemon.port()));
    transport.start();
    await("connected", () -> transport.stats().connected());

    transport.offerRun(TestData.run(1));
    transport.offerRun(TestData.run(2));

    await("2 runs at the daemon", () -> daemon.runs().size() == 2);
    assertThat(daemon.connection(0).received(RunBatch.class)).hasSize(1);
  }

  @Test
  void sitesAreSentAgainAfterTheDaemonDropsTheConnection() throws Exception {
    FakeDaemon daemon = daemon();
    AgentTransport transport = transport(TestData.settings(daemon.port()));
    transport.announceSites(TestData.sites(1, 3));
    transport.start();
    transport.offerRun(TestData.run(1));
    await("first run", () -> daemon.runs().size() == 1);

    daemon.dropConnections();
    await("second connection", () -> daemon.connections.size() == 2);
    await("reconnected", () -> transport.stats().connected());
    transport.announceSites(TestData.sites(4, 1));
    transport.offerRun(TestData.run(2));

    await("run on the second connection", () -> daemon.connection(1).runs().size() == 1);
    List<Message> second = daemon.connection(1).received;
    assertThat(second.get(0)).isInstanceOf(Hello.class);
    assertThat(daemon.connection(1).received(SiteBatch.class))
        .flatExtracting(SiteBatch::sites)
        .isEqualTo(TestData.sites(1, 4));
    int lastSites = second.lastIndexOf(daemon.connection(1).received(SiteBatch.class).get(0));
    assertThat(second.indexOf(daemon.connection(1).received(RunBatch.class).get(0)))
        .isGreaterThan(lastSites);
    assertThat(transport.stats().reconnects()).isGreaterThanOrEqualTo(1);
  }

  @Test
  void aFullQueueDropsNewRunsAndCountsThem() throws Exception {
    TransportSettings settings =
        new TransportSettings(
            "127.0.0.1",
            closedPort(),
            TestData.HELLO,
            3,
            10,
            50,
            60_000,
            10,
            100,
            60_000,
            MessageCodec.DEFAULT_MAX_FRAME_BYTES);
    AgentTransport transport = transport(settings);
    transport.start();

    List<Boolean> accepted = new ArrayList<>();
    for (int i = 1; i <= 5; i++) {
      accepted.add(transport.offerRun(TestData.run(i)));
    }

    assertThat(accepted).containsExactly(true, true, true, false, false);
    TransportStats stats = transport.stats();
    assertThat(stats.runsDropped()).isEqualTo(2);
    assertThat(stats.queuedRuns()).isEqualTo(3);
    assertThat(log.count("run queue full (3)")).isEqualTo(1);
  }

  @Test
  void withoutADaemonFlushAndCloseReturnsWithinItsTimeoutAndCountsQueuedRunsAsDropped()
      throws Exception {
    int port = closedPort();
    AgentTransport transport = transport(TestData.settings(port));
    transport.start();
    for (int i = 1; i <= 4; i++) {
      transport.offerRun(TestData.run(i));
    }
    await("a failed connect", () -> transport.stats().lastError().contains("cannot reach"));

    long start = System.nanoTime();
    transport.flushAndClose(Duration.ofMillis(300));
    Duration took = Duration.ofNanos(System.nanoTime() - start);

    // Generous bound: the point is that it does not wait for a daemon that never comes.
    assertThat(took).isLessThan(Duration.ofSeconds(5));
    assertThat(transport.stats().runsDropped()).isEqualTo(4);
    assertThat(transport.stats().queuedRuns()).isZero();
    assertThat(log.lines)
        .contains("[whyslow] daemon unreachable at 127.0.0.1:" + port + "; dropped 4 runs");
    assertThat(log.count("cannot reach daemon at 127.0.0.1:" + port)).isEqualTo(1);
    assertThat(transport.offerRun(TestData.run(5))).isFalse();
  }

  @Test
  void atShutdownOneRefusedConnectionIsEnoughToGiveUp() throws Exception {
    AgentTransport transport = transport(TestData.settings(closedPort()));
    transport.start();
    transport.offerRun(TestData.run(1));

    long start = System.nanoTime();
    transport.flushAndClose(Duration.ofSeconds(60));

    assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(10));
    assertThat(transport.stats().runsDropped()).isEqualTo(1);
  }

  @Test
  void flushAndCloseDoesNotWaitForADaemonThatNeverAnswersTheHandshake() throws Exception {
    FakeDaemon daemon = daemon();
    daemon.onHello = hello -> null;
    AgentTransport transport = transport(TestData.settings(daemon.port()));
    transport.start();
    transport.offerRun(TestData.run(1));
    await("hello at the daemon", () -> !daemon.connections.isEmpty());

    long start = System.nanoTime();
    transport.flushAndClose(Duration.ofMillis(300));

    assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(5));
    assertThat(transport.stats().runsDropped()).isEqualTo(1);
    assertThat(daemon.runs()).isEmpty();
  }

  @Test
  void flushAndCloseConnectsAndDeliversTheLastRun() throws Exception {
    FakeDaemon daemon = daemon();
    TransportSettings settings =
        new TransportSettings(
            "127.0.0.1",
            daemon.port(),
            TestData.HELLO,
            100,
            10,
            60_000,
            60_000,
            10,
            100,
            60_000,
            MessageCodec.DEFAULT_MAX_FRAME_BYTES);
    AgentTransport transport = transport(settings);
    transport.announceSites(TestData.sites(1, 1));
    transport.start();
    transport.offerRun(TestData.run(1));

    transport.flushAndClose(Duration.ofSeconds(5));

    // Written and flushed before the close; the daemon's side reads it on its own thread.
    await("the last run at the daemon", () -> !daemon.runs().isEmpty());
    assertThat(daemon.runs()).extracting(Run::sequence).containsExactly(1L);
    TransportStats stats = transport.stats();
    assertThat(stats.runsSent()).isEqualTo(1);
    assertThat(stats.runsDropped()).isZero();
    assertThat(log.lines).noneMatch(line -> line.contains("dropped"));
  }

  @Test
  void aBadTokenIsReportedOnceAndTheAgentBacksOffLong() throws Exception {
    FakeDaemon daemon = daemon();
    daemon.onHello =
        hello ->
            new ErrorMessage(
                ErrorCode.BAD_TOKEN,
                "token rejected for service 'checkout'; set whyslow.token to the daemon's token",
                true);
    AgentTransport transport = transport(TestData.settings(daemon.port()));
    transport.start();

    await("the fatal backoff", () -> transport.lastReconnectDelayMillis() == 60_000);
    assertThat(log.lines)
        .containsExactly(
            "[whyslow] daemon at 127.0.0.1:"
                + daemon.port()
                + " refused the agent: BAD_TOKEN: token rejected for service 'checkout'; set"
                + " whyslow.token to the daemon's token; retrying in 60 s");
    assertThat(daemon.connections).hasSize(1);
    TransportStats stats = transport.stats();
    assertThat(stats.connected()).isFalse();
    assertThat(stats.lastError()).contains("BAD_TOKEN");
    assertThat(stats.reconnects()).isZero();
  }

  @Test
  void commandsFromTheDaemonReachTheListener() throws Exception {
    FakeDaemon daemon = daemon();
    AgentTransport transport = transport(TestData.settings(daemon.port()));
    transport.start();
    await("connected", () -> transport.stats().connected());

    daemon.connection(0).send(new SetSamplingRate(0.01));
    daemon.connection(0).send(new SetEnabled(false));

    await("both commands", () -> commands.size() == 2);
    assertThat(commands).containsExactly(0.01, false);
  }

  @Test
  void aGarbageFrameFromTheDaemonIsReportedAndTheAgentReconnects() throws Exception {
    FakeDaemon daemon = daemon();
    AgentTransport transport = transport(TestData.settings(daemon.port()));
    transport.start();
    await("connected", () -> transport.stats().connected());

    daemon.connection(0).sendRaw(new byte[] {0, 0, 0, 1, 99});

    await("a new connection", () -> daemon.connections.size() == 2);
    assertThat(log.count("malformed frame from the daemon: unknown message type 99")).isEqualTo(1);
    assertThat(transport.stats().errors()).isPositive();
  }

  @Test
  void agentStatisticsCarryTheTransportCounters() throws Exception {
    FakeDaemon daemon = daemon();
    TransportSettings settings =
        new TransportSettings(
            "127.0.0.1",
            daemon.port(),
            TestData.HELLO,
            100,
            10,
            20,
            30,
            10,
            100,
            60_000,
            MessageCodec.DEFAULT_MAX_FRAME_BYTES);
    AgentTransport transport =
        transport(settings, () -> new AgentStats(42, 7, 3, 2, 0, 9, 0, 0, 0, 0, 0), () -> {});
    transport.start();
    transport.offerRun(TestData.run(1));
    transport.offerRun(TestData.run(2));

    await(
        "statistics after both runs",
        () ->
            daemon.connections.stream()
                .flatMap(c -> c.received(AgentStats.class).stream())
                .anyMatch(s -> s.runsSent() == 2));
    AgentStats stats =
        daemon.connection(0).received(AgentStats.class).stream()
            .filter(s -> s.runsSent() == 2)
            .findFirst()
            .orElseThrow();
    assertThat(stats.samplesRecorded()).isEqualTo(7);
    assertThat(stats.runsRecorded()).isEqualTo(9);
    assertThat(stats.bytesSent()).isPositive();
    assertThat(stats.timestampEpochMillis()).isEqualTo(42);
  }

  @Test
  void theTransportThreadIsANamedDaemonThreadThatRunsTheHookFirst() throws Exception {
    FakeDaemon daemon = daemon();
    AtomicReference<Thread> hookThread = new AtomicReference<>();
    AgentTransport transport =
        transport(
            TestData.settings(daemon.port()),
            () -> null,
            () -> hookThread.set(Thread.currentThread()));
    transport.start();

    await("the hook", () -> hookThread.get() != null);
    assertThat(hookThread.get().getName()).isEqualTo("whyslow-transport");
    assertThat(hookThread.get().isDaemon()).isTrue();

    transport.flushAndClose(Duration.ofSeconds(5));
    // The loop reports termination just before its thread returns.
    hookThread.get().join(Conditions.TIMEOUT.toMillis());
    assertThat(hookThread.get().isAlive()).isFalse();
  }

  @Test
  void anInterruptedShutdownClosesAtOnceAndKeepsTheInterrupt() throws Exception {
    FakeDaemon daemon = daemon();
    daemon.onHello = hello -> null;
    AgentTransport transport = transport(TestData.settings(daemon.port()));
    transport.start();
    transport.offerRun(TestData.run(1));
    await("hello at the daemon", () -> !daemon.connections.isEmpty());

    long start = System.nanoTime();
    Thread.currentThread().interrupt();
    transport.flushAndClose(Duration.ofSeconds(60));

    assertThat(Thread.interrupted()).isTrue();
    assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(10));
    assertThat(transport.stats().runsDropped()).isEqualTo(1);
  }

  @Test
  void failedConnectionAttemptsAreCountedAsReconnects() throws Exception {
    AgentTransport transport = transport(TestData.settings(closedPort()));
    transport.start();

    await("two reconnects", () -> transport.stats().reconnects() >= 2);
    assertThat(transport.stats().connected()).isFalse();
  }

  @Test
  void nothingThrowsIntoTheCallerBeforeStartOrAfterClose() {
    AgentTransport transport = transport(TestData.settings(1));
    transport.announceSites(null);
    assertThat(transport.offerRun(null)).isFalse();
    transport.flushAndClose(Duration.ofMillis(10));
    transport.start();
    transport.flushAndClose(null);
    assertThat(transport.offerRun(TestData.run(1))).isFalse();
  }

  private static Long[] range(long from, long to) {
    Long[] values = new Long[(int) (to - from + 1)];
    for (int i = 0; i < values.length; i++) {
      values[i] = from + i;
    }
    return values;
  }
}
