package dev.whyslow.daemon.agent;

import static org.assertj.core.api.Assertions.assertThat;

import dev.whyslow.daemon.TestData;
import dev.whyslow.daemon.metrics.DaemonMetrics;
import dev.whyslow.protocol.ErrorCode;
import dev.whyslow.protocol.ErrorMessage;
import dev.whyslow.protocol.HelloOk;
import dev.whyslow.protocol.SetThresholds;
import dev.whyslow.protocol.Threshold;
import dev.whyslow.protocol.UnitHistogram;
import dev.whyslow.protocol.UnitStats;
import dev.whyslow.protocol.UnitTypeBatch;
import dev.whyslow.protocol.UnitTypeInfo;
import dev.whyslow.protocol.Violation;
import dev.whyslow.protocol.ViolationBatch;
import dev.whyslow.protocol.ViolationCause;
import dev.whyslow.storage.InMemoryStore;
import dev.whyslow.storage.UnitStatsQuery;
import dev.whyslow.storage.ViolationQuery;
import io.netty.channel.embedded.EmbeddedChannel;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class UnitIngestTest {
  private static final long T0 = 1_700_000_000_000L;
  private static final long MS = 1_000_000L;

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
    channel =
        new EmbeddedChannel(
            new HandshakeHandler(
                "", "test", 4096, Duration.ofSeconds(10), registry, errors, Clock.systemUTC()),
            new IngestHandler(writer, errors));
    channel.writeInbound(TestData.hello());
    assertThat(channel.<Object>readOutbound()).isInstanceOf(HelloOk.class);
  }

  @AfterEach
  void close() {
    channel.finishAndReleaseAll();
    metrics.close();
  }

  static UnitHistogram histogram(String type, int n, long millis) {
    long[] buckets = new long[UnitHistogram.BUCKETS];
    buckets[UnitHistogram.bucketOf(millis * MS)] = n;
    double ns = millis * MS;
    return new UnitHistogram(
        type, n, n * millis * MS, n * ns * ns, millis * MS, millis * MS, 0, buckets);
  }

  static Violation violation(String type, long detected) {
    return new Violation(
        detected - 900,
        detected,
        type,
        900 * MS,
        500 * MS,
        ViolationCause.WATCHDOG,
        "worker-1",
        List.of("com.acme.Catalog.scan(Catalog.java:42)"),
        0);
  }

  @Test
  void unitStatsAreStoredOffTheEventLoopAndExported() {
    channel.writeInbound(
        new UnitStats(T0, 10_000, List.of(histogram("search", 3, 2), histogram("cart", 1, 30))));
    assertThat(store.unitStats(UnitStatsQuery.of("checkout", 0, Long.MAX_VALUE))).isEmpty();

    executor.runAll();

    assertThat(store.unitStats(UnitStatsQuery.of("checkout", 0, Long.MAX_VALUE))).hasSize(2);
    assertThat(channel.<Object>readOutbound()).isNull();
    assertThat(metrics.scrape())
        .contains(
            "whyslow_unit_duration_seconds_bucket{service=\"checkout\",unit_type=\"search\",le=\"0.0025\",} 3.0")
        .contains(
            "whyslow_unit_duration_seconds_count{service=\"checkout\",unit_type=\"cart\",} 1.0");
  }

  @Test
  void violationsAndUnitTypesAreStoredAndViolationsCounted() {
    channel.writeInbound(
        new ViolationBatch(List.of(violation("search", T0), violation("search", T0 + 1))));
    UnitTypeInfo info =
        new UnitTypeInfo("search", "com.acme.Router.handle", List.of("a > b"), List.of("b"));
    channel.writeInbound(new UnitTypeBatch(List.of(info)));
    executor.runAll();

    assertThat(store.violations(ViolationQuery.forService("checkout"))).hasSize(2);
    assertThat(store.unitTypes("checkout")).containsExactly(info);
    assertThat(metrics.scrape())
        .contains("whyslow_unit_violations_total{service=\"checkout\",unit_type=\"search\",} 2.0");
  }

  @Test
  void emptyOrDuplicateUnitTypesRefuseTheWholeIntervalAndKeepTheConnection() {
    channel.writeInbound(
        new UnitStats(T0, 10_000, List.of(histogram("a", 1, 1), histogram(" ", 1, 1))));
    channel.writeInbound(
        new UnitStats(T0, 10_000, List.of(histogram("a", 1, 1), histogram("a", 1, 2))));
    executor.runAll();

    ErrorMessage empty = channel.readOutbound();
    ErrorMessage duplicate = channel.readOutbound();
    assertThat(empty.code()).isEqualTo(ErrorCode.INVALID_MESSAGE);
    assertThat(empty.message()).contains("empty").contains("was not stored");
    assertThat(empty.fatal()).isFalse();
    assertThat(duplicate.message()).contains("'a' appears twice");
    assertThat(store.unitStats(UnitStatsQuery.of("checkout", 0, Long.MAX_VALUE))).isEmpty();
    assertThat(channel.isOpen()).isTrue();
  }

  @Test
  void absurdValuesAreRefusedWithTheValue() {
    channel.writeInbound(new UnitStats(T0, 3 * 86_400_000L, List.of(histogram("a", 1, 1))));
    channel.writeInbound(new UnitStats(-1, 10_000, List.of(histogram("a", 1, 1))));
    channel.writeInbound(new UnitStats(T0, 10_000, List.of(histogram("x".repeat(201), 1, 1))));
    // count 2, sum 10 ms, but both units within [1 ms, 2 ms]: the mean contradicts min and max.
    long[] buckets = new long[UnitHistogram.BUCKETS];
    buckets[UnitHistogram.bucketOf(MS)] = 2;
    channel.writeInbound(
        new UnitStats(
            T0, 10_000, List.of(new UnitHistogram("a", 2, 10 * MS, 0, MS, 2 * MS, 0, buckets))));
    channel.writeInbound(
        new ViolationBatch(
            List.of(
                new Violation(
                    T0,
                    T0,
                    "a",
                    40L * 86_400_000 * MS,
                    MS,
                    ViolationCause.GUARD,
                    "t",
                    List.of(),
                    0))));
    channel.writeInbound(new ViolationBatch(List.of(violation("a", -5))));
    executor.runAll();

    assertThat(((ErrorMessage) channel.readOutbound()).message()).contains("longer than a day");
    assertThat(((ErrorMessage) channel.readOutbound()).message()).contains("-1 ms");
    assertThat(((ErrorMessage) channel.readOutbound()).message()).contains("201 chars");
    assertThat(((ErrorMessage) channel.readOutbound()).message()).contains("mean");
    assertThat(((ErrorMessage) channel.readOutbound()).message()).contains("30 days");
    assertThat(((ErrorMessage) channel.readOutbound()).message()).contains("-5");
    assertThat(store.unitStats(UnitStatsQuery.of("checkout", 0, Long.MAX_VALUE))).isEmpty();
    assertThat(store.violations(ViolationQuery.forService("checkout"))).isEmpty();
    assertThat(metrics.scrape())
        .contains("whyslow_ingest_rejected_total{reason=\"invalid_message\",} 6.0");
  }

  @Test
  void setThresholdsFromAnAgentIsAProtocolError() {
    channel.writeInbound(new SetThresholds(List.of(new Threshold("a", 5, 5))));

    ErrorMessage error = channel.readOutbound();
    assertThat(error.code()).isEqualTo(ErrorCode.INVALID_MESSAGE);
    assertThat(error.message()).contains("SetThresholds");
    assertThat(channel.isOpen()).isTrue();
  }
}
