package dev.whyslow.daemon.agent;

import static org.assertj.core.api.Assertions.assertThat;

import dev.whyslow.daemon.TestData;
import dev.whyslow.daemon.metrics.DaemonMetrics;
import dev.whyslow.protocol.ErrorCode;
import dev.whyslow.protocol.ErrorMessage;
import dev.whyslow.protocol.Hello;
import dev.whyslow.protocol.HelloOk;
import dev.whyslow.protocol.Label;
import dev.whyslow.protocol.Run;
import dev.whyslow.protocol.RunBatch;
import dev.whyslow.protocol.RunKind;
import dev.whyslow.protocol.SetEnabled;
import dev.whyslow.protocol.Site;
import dev.whyslow.protocol.SiteBatch;
import dev.whyslow.protocol.SiteCounts;
import dev.whyslow.storage.InMemoryStore;
import dev.whyslow.storage.RunOrigin;
import dev.whyslow.storage.RunQuery;
import io.netty.channel.embedded.EmbeddedChannel;
import java.time.Clock;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class IngestHandlerTest {
  private static final long T0 = 1_700_000_000_000L;

  private final InMemoryStore store = new InMemoryStore();
  private final DaemonMetrics metrics = new DaemonMetrics("test");
  private final AgentRegistry registry = new AgentRegistry();
  private final ManualExecutor executor = new ManualExecutor();
  private final ErrorReplies errors = new ErrorReplies(metrics);
  private final IngestWriter writer =
      new IngestWriter(store, new IngestQueue(1 << 20, executor), metrics, registry, errors);
  private EmbeddedChannel channel;

  @BeforeEach
  void connect() {
    channel = connect(TestData.hello());
  }

  private EmbeddedChannel connect(Hello hello) {
    EmbeddedChannel ch =
        new EmbeddedChannel(
            new HandshakeHandler(
                "", "test", 4096, Duration.ofSeconds(10), registry, errors, Clock.systemUTC()),
            new IngestHandler(writer, errors));
    ch.writeInbound(hello);
    assertThat(ch.<Object>readOutbound()).isInstanceOf(HelloOk.class);
    return ch;
  }

  @AfterEach
  void close() {
    channel.finishAndReleaseAll();
    metrics.close();
  }

  @Test
  void sitesAndRunsAreStoredOffTheEventLoopInOrder() {
    channel.writeInbound(TestData.SITES);
    channel.writeInbound(new RunBatch(List.of(TestData.run(1, T0), TestData.run(2, T0 + 5))));
    assertThat(store.sites("checkout")).isEmpty(); // queued, not written on the event loop

    executor.runAll();
    assertThat(store.sites("checkout")).containsExactly(sorted(TestData.LOOP, TestData.RETURN));
    assertThat(store.runs(RunQuery.forService("checkout"))).hasSize(2);
    assertThat(channel.<Object>readOutbound()).isNull();
    assertThat(metrics.scrape())
        .contains("whyslow_ingest_runs_total 2.0")
        .contains("whyslow_ingest_sites_total 2.0")
        .contains("whyslow_ingest_write_seconds_count 2");
  }

  private static Site[] sorted(Site... sites) {
    return Arrays.stream(sites)
        .sorted((a, b) -> Long.compareUnsigned(a.key(), b.key()))
        .toArray(Site[]::new);
  }

  @Test
  void runWithUnknownSiteRejectsTheBatchButKeepsTheConnection() {
    channel.writeInbound(TestData.SITES);
    channel.writeInbound(new RunBatch(List.of(TestData.run(1, T0))));
    channel.writeInbound(
        new RunBatch(List.of(TestData.run(2, T0 + 1), TestData.runWithUnknownSite(3, T0 + 2))));
    channel.writeInbound(new RunBatch(List.of(TestData.run(4, T0 + 3))));
    executor.runAll();
    channel.runPendingTasks();

    ErrorMessage error = channel.readOutbound();
    assertThat(error.code()).isEqualTo(ErrorCode.UNKNOWN_SITE);
    assertThat(error.fatal()).isFalse();
    assertThat(error.message())
        .contains("0123456789abcdef")
        .contains("run 2 of 2 (sequence 3)")
        .contains("batch of 2 runs was not stored");
    assertThat(channel.isOpen()).isTrue();
    assertThat(store.runs(RunQuery.forService("checkout")))
        .extracting(r -> r.run().sequence())
        .containsExactly(1L, 4L);
    assertThat(metrics.scrape())
        .contains("whyslow_ingest_rejected_total{reason=\"unknown_site\",} 1.0");
  }

  @Test
  void sitesKnownInTheStoreNeedNoAnnouncementOnANewConnection() {
    store.putSites("checkout", TestData.SITES.sites());
    channel.writeInbound(new RunBatch(List.of(TestData.run(1, T0))));
    executor.runAll();
    assertThat(store.runs(RunQuery.forService("checkout"))).hasSize(1);
  }

  @Test
  void sitesOfAnotherServiceDoNotCount() {
    store.putSites("search", TestData.SITES.sites());
    channel.writeInbound(new RunBatch(List.of(TestData.run(1, T0))));
    executor.runAll();
    assertThat(((ErrorMessage) channel.readOutbound()).code()).isEqualTo(ErrorCode.UNKNOWN_SITE);
    assertThat(store.runs(RunQuery.all())).isEmpty();
  }

  @Test
  void predicateCountMustMatchTheSiteKind() {
    Run wrong =
        new Run(
            1,
            RunKind.UNIT,
            T0,
            1,
            Label.DO_NOT_CARE,
            "",
            1e-4,
            List.of(new SiteCounts(TestData.LOOP.key(), 3, new long[] {1, 1, 1, 0, 0, 0})));
    channel.writeInbound(TestData.SITES);
    channel.writeInbound(new RunBatch(List.of(wrong)));
    executor.runAll();

    ErrorMessage error = channel.readOutbound();
    assertThat(error.code()).isEqualTo(ErrorCode.INVALID_MESSAGE);
    assertThat(error.message())
        .contains("6 true counts for LOOP_BRANCH site")
        .contains("2 predicates");
    assertThat(store.runs(RunQuery.all())).isEmpty();
  }

  @Test
  void agentStatsAreStoredAndBecomePerServiceCounters() {
    channel.writeInbound(TestData.stats(3, 100));
    channel.writeInbound(TestData.stats(5, 250));
    executor.runAll();

    RunOrigin origin = new RunOrigin("checkout", "host-a:1", "1.0");
    assertThat(store.agentStats(origin)).contains(TestData.stats(5, 250));
    assertThat(registry.agents().get(0).latestStats()).contains(TestData.stats(5, 250));
    assertThat(metrics.scrape())
        .contains("whyslow_agent_runs_dropped_total{service=\"checkout\",} 5.0")
        .contains("whyslow_agent_samples_recorded_total{service=\"checkout\",} 250.0");
  }

  @Test
  void agentRestartCountsItsNewCountersFromZero() {
    assertThat(IngestWriter.increase(10, 15)).isEqualTo(5);
    assertThat(IngestWriter.increase(10, 4)).isEqualTo(4);
  }

  @Test
  void commandsFromAnAgentAreRefusedWithoutClosing() {
    channel.writeInbound(new SetEnabled(false));
    ErrorMessage error = channel.readOutbound();
    assertThat(error.code()).isEqualTo(ErrorCode.INVALID_MESSAGE);
    assertThat(error.fatal()).isFalse();
    assertThat(channel.isOpen()).isTrue();
  }

  @Test
  void secondHelloClosesTheConnection() {
    channel.writeInbound(TestData.hello());
    ErrorMessage error = channel.readOutbound();
    assertThat(error.fatal()).isTrue();
    assertThat(channel.isOpen()).isFalse();
  }

  @Test
  void storeFailureIsReportedAsInternalErrorWithoutClosing() {
    store.putSites("checkout", TestData.SITES.sites());
    channel.writeInbound(new SiteBatch(List.of()));
    store.close(); // every write now fails
    channel.writeInbound(new RunBatch(List.of(TestData.run(1, T0))));
    executor.runAll();

    Object first = channel.readOutbound();
    assertThat(first).isInstanceOf(ErrorMessage.class);
    assertThat(((ErrorMessage) first).code()).isEqualTo(ErrorCode.INTERNAL);
    assertThat(((ErrorMessage) first).fatal()).isFalse();
    assertThat(channel.isOpen()).isTrue();
  }
}
