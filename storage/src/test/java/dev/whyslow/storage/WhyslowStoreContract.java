package dev.whyslow.storage;

import static dev.whyslow.storage.StoreFixtures.CHECKOUT_A;
import static dev.whyslow.storage.StoreFixtures.CHECKOUT_B;
import static dev.whyslow.storage.StoreFixtures.SEARCH_A;
import static dev.whyslow.storage.StoreFixtures.agentStats;
import static dev.whyslow.storage.StoreFixtures.deterministicRun;
import static dev.whyslow.storage.StoreFixtures.run;
import static dev.whyslow.storage.StoreFixtures.site;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.whyslow.protocol.Label;
import dev.whyslow.protocol.Run;
import dev.whyslow.protocol.RunKind;
import dev.whyslow.protocol.Site;
import dev.whyslow.protocol.SiteCounts;
import dev.whyslow.protocol.SiteKind;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * What every {@link WhyslowStore} must do. Implementations extend this class and say how to open a
 * store in a directory; stores that survive a restart also override {@link #supportsReopen()}.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
public abstract class WhyslowStoreContract {
  private static final long T0 = 1_700_000_000_000L;

  @TempDir protected Path dir;
  protected WhyslowStore store;

  /** Opens (creating if needed) a store that keeps its data in {@code dir}. */
  protected abstract WhyslowStore openStore(Path dir);

  /** Whether closing and opening the same directory keeps the data. */
  protected boolean supportsReopen() {
    return false;
  }

  @BeforeEach
  void openFreshStore() {
    store = openStore(dir);
  }

  @AfterEach
  void closeStore() {
    store.close();
  }

  protected void reopen() {
    store.close();
    store = openStore(dir);
  }

  // ---- sites

  @Test
  void sitesAreReturnedInUnsignedKeyOrder() {
    Site high = site(-2L, "high", SiteKind.BRANCH);
    Site low = site(5L, "low", SiteKind.RETURN_NUMERIC);
    Site mid = site(0x7000_0000_0000_0000L, "mid", SiteKind.LOOP_BRANCH);

    store.putSites("checkout", List.of(high, low, mid));

    assertThat(store.sites("checkout")).containsExactly(low, mid, high);
  }

  @Test
  void putSitesReplacesASiteWithTheSameKey() {
    store.putSites("checkout", List.of(site(1, "old", SiteKind.BRANCH)));
    Site replacement =
        new Site(1, "a.B", "c", "(I)J", "", -1, SiteKind.SCALAR_PAIR, 3, "i vs j — ünïcode");

    store.putSites("checkout", List.of(replacement));

    assertThat(store.sites("checkout")).containsExactly(replacement);
    assertThat(store.site("checkout", 1)).contains(replacement);
  }

  @Test
  void sitesAreKeptPerService() {
    store.putSites("checkout", List.of(site(1, "a", SiteKind.BRANCH)));
    store.putSites("checkout-v2", List.of(site(2, "b", SiteKind.BRANCH)));

    assertThat(store.sites("checkout")).extracting(Site::key).containsExactly(1L);
    assertThat(store.sites("checkout-v2")).extracting(Site::key).containsExactly(2L);
    assertThat(store.site("checkout", 2)).isEmpty();
    assertThat(store.sites("unknown")).isEmpty();
    assertThat(store.site("unknown", 1)).isEmpty();
  }

  // ---- runs

  @Test
  void runsRoundTripEveryField() {
    Run full =
        new Run(
            Long.MAX_VALUE,
            RunKind.PROCESS,
            RunIds.MAX_EPOCH_MILLIS,
            Long.MAX_VALUE,
            Label.FAILURE,
            "POST /pay — ünïcode ✓",
            1e-6,
            List.of(
                new SiteCounts(Long.MIN_VALUE, Long.MAX_VALUE, new long[] {Long.MAX_VALUE, 0}),
                new SiteCounts(0, 0, new long[0]),
                new SiteCounts(-1, 3, new long[] {1, 2, 3, 0, 0, 3})));
    Run empty = new Run(0, RunKind.UNIT, 0, 0, Label.SUCCESS, "", 1.0, List.of());
    RunOrigin origin = new RunOrigin("svc ✓", "", "");

    List<StoredRun> stored = store.putRuns(origin, List.of(full, empty));

    assertThat(stored).extracting(StoredRun::run).containsExactly(full, empty);
    assertThat(stored).extracting(StoredRun::origin).containsOnly(origin);
    for (StoredRun s : stored) {
      assertThat(store.run(s.runId())).contains(s);
    }
    assertThat(store.runs(RunQuery.all())).containsExactly(stored.get(1), stored.get(0));
  }

  @Test
  void putRunsAssignsIdsOfTheRunStartInTheOrderGiven() {
    List<Run> batch = List.of(run(1, T0 + 50), run(2, T0), run(3, T0 + 20));

    List<StoredRun> stored = store.putRuns(CHECKOUT_A, batch);

    assertThat(stored).extracting(StoredRun::run).containsExactlyElementsOf(batch);
    assertThat(stored)
        .extracting(s -> RunIds.startEpochMillis(s.runId()))
        .containsExactly(T0 + 50, T0, T0 + 20);
  }

  @Test
  void runIdsAreUniqueForManyRunsStartingInTheSameMillisecond() {
    Set<Long> ids = new HashSet<>();
    for (int batch = 0; batch < 10; batch++) {
      List<Run> runs = new ArrayList<>();
      for (int i = 0; i < 300; i++) {
        runs.add(run(batch * 300L + i, T0));
      }
      store.putRuns(CHECKOUT_A, runs).forEach(s -> ids.add(s.runId()));
    }

    assertThat(ids).hasSize(3000);
    assertThat(store.runs(RunQuery.all())).hasSize(3000);
  }

  @Test
  void runsComeBackOldestFirstWhateverTheOrderTheyArrived() {
    store.putRuns(CHECKOUT_A, List.of(run(1, T0 + 3000), run(2, T0 + 1000)));
    store.putRuns(CHECKOUT_B, List.of(run(3, T0 + 2000), run(4, T0)));

    List<StoredRun> all = store.runs(RunQuery.all());

    assertThat(all).extracting(s -> s.run().sequence()).containsExactly(4L, 2L, 3L, 1L);
    assertThat(all).extracting(StoredRun::runId).isSorted();
  }

  @Test
  void runWithUnknownIdIsEmpty() {
    store.putRuns(CHECKOUT_A, List.of(run(1, T0)));

    assertThat(store.run(RunIds.of(T0 + 1, 0))).isEmpty();
  }

  @Test
  void putRunsWithNoRunsStoresNothing() {
    assertThat(store.putRuns(CHECKOUT_A, List.of())).isEmpty();
    assertThat(store.runs(RunQuery.all())).isEmpty();
  }

  @Test
  void windowIncludesItsStartAndExcludesItsEnd() {
    store.putRuns(
        CHECKOUT_A, List.of(run(1, T0 - 1), run(2, T0), run(3, T0 + 999), run(4, T0 + 1000)));

    List<StoredRun> window = store.runs(RunQuery.all().withWindow(T0, T0 + 1000));

    assertThat(window).extracting(s -> s.run().sequence()).containsExactly(2L, 3L);
    assertThat(store.runs(RunQuery.all().withWindow(T0, T0))).isEmpty();
    assertThat(store.runs(RunQuery.all().withWindow(T0 + 5, T0))).isEmpty();
    assertThat(store.runs(RunQuery.all().withWindow(Long.MIN_VALUE, T0))).hasSize(1);
  }

  @Test
  void openEndedWindowReachesTheLatestStorableStart() {
    store.putRuns(CHECKOUT_A, List.of(run(1, RunIds.MAX_EPOCH_MILLIS), run(2, 0)));

    assertThat(store.runs(RunQuery.all().withWindow(1, Long.MAX_VALUE)))
        .extracting(s -> s.run().sequence())
        .containsExactly(1L);
  }

  @Test
  void queriesFilterByServiceInstanceVersionUnitTypeKindAndLabel() {
    store.putRuns(CHECKOUT_A, List.of(run(1, T0, Label.FAILURE, "GET /cart")));
    store.putRuns(CHECKOUT_B, List.of(run(2, T0 + 1, Label.SUCCESS, "GET /cart")));
    store.putRuns(SEARCH_A, List.of(run(3, T0 + 2, Label.FAILURE, "query")));
    Run process = new Run(4, RunKind.PROCESS, T0 + 3, 5, Label.DO_NOT_CARE, "", 1, List.of());
    store.putRuns(CHECKOUT_A, List.of(process));
    RunQuery all = RunQuery.all();

    assertThat(sequences(all.withService("checkout"))).containsExactly(1L, 2L, 4L);
    assertThat(sequences(all.withService("search"))).containsExactly(3L);
    assertThat(sequences(all.withService("check"))).isEmpty();
    assertThat(sequences(all.withInstance("host-a:1"))).containsExactly(1L, 4L);
    assertThat(sequences(all.withServiceVersion("1.1"))).containsExactly(2L);
    assertThat(sequences(all.withUnitType("GET /cart"))).containsExactly(1L, 2L);
    assertThat(sequences(all.withUnitType(""))).containsExactly(4L);
    assertThat(sequences(all.withKind(RunKind.PROCESS))).containsExactly(4L);
    assertThat(sequences(all.withKind(RunKind.UNIT))).containsExactly(1L, 2L, 3L);
    assertThat(sequences(all.withLabel(Label.FAILURE))).containsExactly(1L, 3L);
    assertThat(sequences(all.withLabel(Label.DO_NOT_CARE))).containsExactly(4L);
    assertThat(sequences(all.withService("checkout").withLabel(Label.FAILURE))).containsExactly(1L);
    assertThat(sequences(all.withService("checkout").withWindow(T0 + 1, T0 + 4)))
        .containsExactly(2L, 4L);
  }

  @Test
  void limitKeepsTheOldestMatchingRuns() {
    for (int i = 0; i < 20; i++) {
      RunOrigin origin = i % 2 == 0 ? CHECKOUT_A : SEARCH_A;
      store.putRuns(origin, List.of(run(i, T0 + i)));
    }

    assertThat(sequences(RunQuery.forService("checkout").withLimit(3))).containsExactly(0L, 2L, 4L);
    assertThat(sequences(RunQuery.all().withLimit(1))).containsExactly(0L);
  }

  // ---- labels

  @Test
  void relabelByQueryChangesExactlyTheMatchingRunsIgnoringTheLimit() {
    store.putRuns(CHECKOUT_A, List.of(run(1, T0), run(2, T0 + 10), run(3, T0 + 20)));
    store.putRuns(CHECKOUT_B, List.of(run(4, T0 + 10)));
    store.putRuns(SEARCH_A, List.of(run(5, T0 + 10)));

    long n =
        store.relabel(
            RunQuery.forService("checkout").withWindow(T0 + 10, T0 + 30).withLimit(1),
            Label.FAILURE);

    assertThat(n).isEqualTo(3);
    assertThat(labels(RunQuery.all()))
        .containsExactly(
            Map.entry(1L, Label.DO_NOT_CARE),
            Map.entry(2L, Label.FAILURE),
            Map.entry(4L, Label.FAILURE),
            Map.entry(5L, Label.DO_NOT_CARE),
            Map.entry(3L, Label.FAILURE));
    assertThat(sequences(RunQuery.all().withLabel(Label.FAILURE))).containsExactly(2L, 4L, 3L);
  }

  @Test
  void relabelKeepsEverythingButTheLabel() {
    Run original = deterministicRun(5, T0);
    StoredRun stored = store.putRuns(CHECKOUT_A, List.of(original)).get(0);

    store.relabel(List.of(stored.runId()), Label.SUCCESS);

    assertThat(store.run(stored.runId())).contains(stored.withLabel(Label.SUCCESS));
  }

  @Test
  void relabelByIdsSkipsUnknownIdsAndCountsEachRunOnce() {
    List<StoredRun> stored = store.putRuns(CHECKOUT_A, List.of(run(1, T0), run(2, T0 + 1)));
    long first = stored.get(0).runId();

    long n = store.relabel(List.of(first, first, RunIds.of(T0 + 99, 7)), Label.SUCCESS);

    assertThat(n).isEqualTo(1);
    assertThat(store.run(first).orElseThrow().label()).isEqualTo(Label.SUCCESS);
    assertThat(store.run(stored.get(1).runId()).orElseThrow().label()).isEqualTo(Label.DO_NOT_CARE);
    assertThat(store.relabel(List.of(), Label.FAILURE)).isZero();
  }

  // ---- services and agent stats

  @Test
  void servicesSummarizeInstancesVersionsSitesAndRuns() {
    store.putSites(
        "checkout", List.of(site(1, "a", SiteKind.BRANCH), site(2, "b", SiteKind.BRANCH)));
    store.putSites("checkout", List.of(site(2, "b2", SiteKind.BRANCH)));
    store.putSites("sites-only", List.of(site(3, "c", SiteKind.BRANCH)));
    store.putRuns(CHECKOUT_A, List.of(run(1, T0 + 5), run(2, T0)));
    store.putRuns(CHECKOUT_B, List.of(run(3, T0 + 1)));
    store.putRuns(SEARCH_A, List.of(run(4, T0 + 9)));

    Map<String, ServiceSummary> byName =
        store.services().stream()
            .collect(Collectors.toMap(ServiceSummary::service, Function.identity()));

    assertThat(store.services())
        .extracting(ServiceSummary::service)
        .containsExactly("checkout", "search", "sites-only");
    ServiceSummary checkout = byName.get("checkout");
    assertThat(checkout.instances()).containsExactlyInAnyOrder("host-a:1", "host-b:1");
    assertThat(checkout.serviceVersions()).containsExactlyInAnyOrder("1.0", "1.1");
    assertThat(checkout.siteCount()).isEqualTo(2);
    assertThat(checkout.runCount()).isEqualTo(3);
    assertThat(checkout.lastRunStartEpochMillis()).isEqualTo(T0 + 5);
    assertThat(byName.get("search").runCount()).isEqualTo(1);
    ServiceSummary sitesOnly = byName.get("sites-only");
    assertThat(sitesOnly.siteCount()).isEqualTo(1);
    assertThat(sitesOnly.runCount()).isZero();
    assertThat(sitesOnly.instances()).isEmpty();
  }

  @Test
  void agentStatsKeepTheLatestPerInstance() {
    store.putAgentStats(CHECKOUT_A, agentStats(T0, 10));
    store.putAgentStats(CHECKOUT_A, agentStats(T0 + 1000, 20));
    store.putAgentStats(CHECKOUT_B, agentStats(T0, 5));

    assertThat(store.agentStats(CHECKOUT_A)).contains(agentStats(T0 + 1000, 20));
    assertThat(store.agentStats(CHECKOUT_B)).contains(agentStats(T0, 5));
    assertThat(store.agentStats(new RunOrigin("checkout", "host-a:1", "2.0"))).isEmpty();
  }

  @Test
  void statsCountRunsAndSites() {
    store.putSites("checkout", List.of(site(1, "a", SiteKind.BRANCH)));
    store.putSites("search", List.of(site(1, "a", SiteKind.BRANCH), site(2, "b", SiteKind.BRANCH)));
    store.putRuns(CHECKOUT_A, List.of(run(1, T0), run(2, T0)));

    StoreStats stats = store.stats();

    assertThat(stats.runCount()).isEqualTo(2);
    assertThat(stats.siteCount()).isEqualTo(3);
    assertThat(stats.diskBytes()).isNotNegative();
  }

  // ---- retention

  @Test
  void deleteRunsBeforeRemovesExactlyTheOlderRuns() {
    store.putRuns(CHECKOUT_A, List.of(run(1, T0 - 120_000), run(2, T0 - 1), run(3, T0)));
    store.putRuns(SEARCH_A, List.of(run(4, T0 - 30_000), run(5, T0 + 60_000)));
    store.putSites("checkout", List.of(site(1, "a", SiteKind.BRANCH)));

    long deleted = store.deleteRunsBefore(T0);

    assertThat(deleted).isEqualTo(3);
    assertThat(sequences(RunQuery.all())).containsExactly(3L, 5L);
    assertThat(store.runs(RunQuery.all().withWindow(0, T0))).isEmpty();
    assertThat(store.sites("checkout")).hasSize(1);
    assertThat(store.services()).extracting(ServiceSummary::runCount).containsExactly(1L, 1L);
    assertThat(store.stats().runCount()).isEqualTo(2);
    assertThat(store.deleteRunsBefore(T0)).isZero();
    assertThat(store.deleteRunsBefore(Long.MAX_VALUE)).isEqualTo(2);
    assertThat(store.runs(RunQuery.all())).isEmpty();
  }

  @Test
  void runsStoredAfterRetentionAreKept() {
    store.putRuns(CHECKOUT_A, List.of(run(1, T0 - 10)));
    store.deleteRunsBefore(T0);

    store.putRuns(CHECKOUT_A, List.of(run(2, T0 - 5), run(3, T0 + 5)));

    assertThat(sequences(RunQuery.all())).containsExactly(2L, 3L);
    assertThat(store.services().get(0).runCount()).isEqualTo(2);
  }

  // ---- concurrency

  @Test
  void concurrentPutRunsLoseNothing() throws Exception {
    int threads = 4;
    int batches = 50;
    int perBatch = 20;
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    try {
      List<Future<List<Long>>> futures = new ArrayList<>();
      for (int t = 0; t < threads; t++) {
        RunOrigin origin = new RunOrigin("checkout", "host-" + t, "1");
        long base = t * 1_000_000L;
        futures.add(
            pool.submit(
                () -> {
                  List<Long> ids = new ArrayList<>();
                  for (int b = 0; b < batches; b++) {
                    List<Run> batch = new ArrayList<>();
                    for (int i = 0; i < perBatch; i++) {
                      long seq = base + b * perBatch + i;
                      batch.add(deterministicRun(seq, T0 + (seq % 17)));
                    }
                    store.putRuns(origin, batch).forEach(s -> ids.add(s.runId()));
                  }
                  return ids;
                }));
      }
      Set<Long> ids = new HashSet<>();
      for (Future<List<Long>> f : futures) {
        ids.addAll(f.get(30, TimeUnit.SECONDS));
      }

      int total = threads * batches * perBatch;
      assertThat(ids).hasSize(total);
      List<StoredRun> all = store.runs(RunQuery.all());
      assertThat(all).hasSize(total);
      for (StoredRun s : all) {
        long seq = s.run().sequence();
        assertThat(s.run()).isEqualTo(deterministicRun(seq, T0 + (seq % 17)));
        assertThat(s.origin().instance()).isEqualTo("host-" + seq / 1_000_000L);
      }
      assertThat(store.services().get(0).runCount()).isEqualTo(total);
    } finally {
      pool.shutdownNow();
    }
  }

  // ---- bad input

  @Test
  void aBatchWithAnUnstorableRunFailsWholeAndStoresNothing() {
    List<Run> batch = List.of(run(1, T0), run(2, -5), run(3, T0 + 1));

    assertThatThrownBy(() -> store.putRuns(CHECKOUT_A, batch))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("-5")
        .hasMessageContaining("host-a:1");

    assertThat(store.runs(RunQuery.all())).isEmpty();
    assertThat(store.services()).isEmpty();
    assertThat(store.stats().runCount()).isZero();
    assertThatThrownBy(
            () -> store.putRuns(CHECKOUT_A, List.of(run(1, RunIds.MAX_EPOCH_MILLIS + 1))))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void namesTooLongForAKeyAreRejected() {
    String huge = "x".repeat(StoreLimits.MAX_NAME_BYTES + 1);

    assertThatThrownBy(() -> store.putRuns(new RunOrigin(huge, "i", "v"), List.of(run(1, T0))))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("service name");
    assertThatThrownBy(() -> store.putSites(huge, List.of(site(1, "a", SiteKind.BRANCH))))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> store.putAgentStats(new RunOrigin("s", huge, "v"), agentStats(T0, 1)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("instance name");
    assertThat(store.services()).isEmpty();
  }

  @Test
  void aClosedStoreRefusesWork() {
    store.close();

    assertThatThrownBy(() -> store.runs(RunQuery.all()))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("closed");
    store.close(); // idempotent
    store = openStore(dir);
  }

  // ---- durability

  @Test
  void everythingSurvivesAReopen() {
    assumeTrue(supportsReopen(), "this store keeps nothing across a reopen");
    store.putSites("checkout", List.of(site(-9, "a", SiteKind.RETURN_BOOLEAN)));
    List<StoredRun> stored =
        store.putRuns(CHECKOUT_A, List.of(deterministicRun(1, T0), deterministicRun(2, T0)));
    store.relabel(List.of(stored.get(0).runId()), Label.FAILURE);
    store.putAgentStats(CHECKOUT_A, agentStats(T0, 2));
    List<ServiceSummary> services = store.services();
    List<StoredRun> before = store.runs(RunQuery.all());

    reopen();

    assertThat(store.sites("checkout")).containsExactly(site(-9, "a", SiteKind.RETURN_BOOLEAN));
    assertThat(store.runs(RunQuery.all())).isEqualTo(before);
    assertThat(store.run(stored.get(0).runId()).orElseThrow().label()).isEqualTo(Label.FAILURE);
    assertThat(store.agentStats(CHECKOUT_A)).contains(agentStats(T0, 2));
    assertThat(store.services()).isEqualTo(services);
    assertThat(store.stats().runCount()).isEqualTo(2);
  }

  @Test
  void idsAssignedAfterAReopenDoNotRepeatEarlierOnes() {
    assumeTrue(supportsReopen(), "this store keeps nothing across a reopen");
    Set<Long> ids = new HashSet<>();
    store.putRuns(CHECKOUT_A, List.of(run(1, T0), run(2, T0))).forEach(s -> ids.add(s.runId()));

    reopen();
    store.putRuns(CHECKOUT_A, List.of(run(3, T0), run(4, T0))).forEach(s -> ids.add(s.runId()));

    assertThat(ids).hasSize(4);
    assertThat(store.runs(RunQuery.all())).hasSize(4);
  }

  @Test
  void retentionSurvivesAReopen() {
    assumeTrue(supportsReopen(), "this store keeps nothing across a reopen");
    store.putRuns(CHECKOUT_A, List.of(run(1, T0 - 90_000), run(2, T0 - 10), run(3, T0 + 10)));
    store.deleteRunsBefore(T0);

    reopen();

    assertThat(sequences(RunQuery.all())).containsExactly(3L);
    assertThat(store.services().get(0).runCount()).isEqualTo(1);
    assertThat(store.stats().runCount()).isEqualTo(1);
  }

  // ---- helpers

  protected List<Long> sequences(RunQuery query) {
    return store.runs(query).stream().map(s -> s.run().sequence()).toList();
  }

  private List<Map.Entry<Long, Label>> labels(RunQuery query) {
    return store.runs(query).stream()
        .map(s -> Map.entry(s.run().sequence(), s.label()))
        .collect(Collectors.toList());
  }
}
