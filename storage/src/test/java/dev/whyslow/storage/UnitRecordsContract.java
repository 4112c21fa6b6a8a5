package dev.whyslow.storage;

import static dev.whyslow.storage.StoreFixtures.CHECKOUT_A;
import static dev.whyslow.storage.StoreFixtures.CHECKOUT_B;
import static dev.whyslow.storage.StoreFixtures.SEARCH_A;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.whyslow.protocol.UnitHistogram;
import dev.whyslow.protocol.UnitStats;
import dev.whyslow.protocol.UnitTypeInfo;
import dev.whyslow.protocol.Violation;
import dev.whyslow.protocol.ViolationCause;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * What every {@link WhyslowStore} must do with unit statistics, thresholds, violations and unit
 * types. Implementations extend it as they extend {@link WhyslowStoreContract}.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
public abstract class UnitRecordsContract {
  private static final long T0 = 1_700_000_000_000L;

  @TempDir protected Path dir;
  protected WhyslowStore store;

  protected abstract WhyslowStore openStore(Path dir);

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

  /** A histogram of {@code durationsMillis}, built the way an agent builds it. */
  public static UnitHistogram histogram(String unitType, long violations, long... durationsMillis) {
    long sum = 0;
    double squares = 0;
    long min = Long.MAX_VALUE;
    long max = 0;
    long[] buckets = new long[UnitHistogram.BUCKETS];
    for (long ms : durationsMillis) {
      long ns = ms * 1_000_000;
      sum += ns;
      squares += (double) ns * ns;
      min = Math.min(min, ns);
      max = Math.max(max, ns);
      buckets[UnitHistogram.bucketOf(ns)]++;
    }
    return new UnitHistogram(
        unitType,
        durationsMillis.length,
        sum,
        squares,
        durationsMillis.length == 0 ? 0 : min,
        max,
        violations,
        buckets);
  }

  static Violation violation(String unitType, long detectedMillis, String... stack) {
    return new Violation(
        detectedMillis - 900,
        detectedMillis,
        unitType,
        900_000_000L,
        500_000_000L,
        ViolationCause.GUARD,
        "http-worker-3",
        List.of(stack),
        17);
  }

  // ---- unit statistics

  @Test
  void unitStatsRoundTripPerTypeAndInstance() {
    UnitHistogram search = histogram("search", 1, 3, 4, 900);
    UnitHistogram cart = histogram("cart", 0, 1, 2);
    store.putUnitStats(CHECKOUT_A, new UnitStats(T0, 10_000, List.of(search, cart)));
    store.putUnitStats(CHECKOUT_B, new UnitStats(T0, 10_000, List.of(histogram("search", 0, 5))));

    List<StoredUnitStats> all = store.unitStats(UnitStatsQuery.of("checkout", 0, Long.MAX_VALUE));

    assertThat(all).hasSize(3);
    assertThat(all)
        .contains(
            new StoredUnitStats(CHECKOUT_A, T0, 10_000, search),
            new StoredUnitStats(CHECKOUT_A, T0, 10_000, cart),
            new StoredUnitStats(CHECKOUT_B, T0, 10_000, histogram("search", 0, 5)));
  }

  @Test
  void unitStatsAreReadByServiceUnitTypeAndWindowOldestFirst() {
    store.putUnitStats(CHECKOUT_A, new UnitStats(T0 + 20_000, 10_000, List.of(h("a", 1))));
    store.putUnitStats(CHECKOUT_A, new UnitStats(T0, 10_000, List.of(h("a", 2), h("b", 3))));
    store.putUnitStats(CHECKOUT_A, new UnitStats(T0 + 10_000, 10_000, List.of(h("a", 4))));
    store.putUnitStats(SEARCH_A, new UnitStats(T0, 10_000, List.of(h("a", 5))));

    assertThat(starts(UnitStatsQuery.of("checkout", T0, T0 + 20_000).withUnitType("a")))
        .containsExactly(T0, T0 + 10_000);
    assertThat(store.unitStats(UnitStatsQuery.of("checkout", T0, T0 + 1)))
        .extracting(StoredUnitStats::unitType)
        .containsExactlyInAnyOrder("a", "b");
    assertThat(store.unitStats(UnitStatsQuery.of("search", 0, Long.MAX_VALUE))).hasSize(1);
    assertThat(store.unitStats(UnitStatsQuery.of("nobody", 0, Long.MAX_VALUE))).isEmpty();
    assertThat(store.unitStats(UnitStatsQuery.of("checkout", T0 + 1, T0 + 1))).isEmpty();
  }

  @Test
  void aServiceWhoseNameIsAPrefixOfAnotherGetsOnlyItsOwnStats() {
    store.putUnitStats(
        new RunOrigin("shop", "i", "1"), new UnitStats(T0, 10_000, List.of(h("a", 1))));
    store.putUnitStats(
        new RunOrigin("shopping", "i", "1"), new UnitStats(T0, 10_000, List.of(h("a", 1))));

    assertThat(store.unitStats(UnitStatsQuery.of("shop", 0, Long.MAX_VALUE))).hasSize(1);
  }

  @Test
  void aRepeatedIntervalReplacesTheEntryOfThatInstance() {
    store.putUnitStats(CHECKOUT_A, new UnitStats(T0, 10_000, List.of(h("a", 1))));
    store.putUnitStats(CHECKOUT_A, new UnitStats(T0, 10_000, List.of(h("a", 7))));

    assertThat(store.unitStats(UnitStatsQuery.of("checkout", 0, Long.MAX_VALUE)))
        .singleElement()
        .satisfies(s -> assertThat(s.histogram().maxNanos()).isEqualTo(7_000_000));
  }

  @Test
  void unitStatsOutsideTheStorableTimeAreRejectedWhole() {
    assertThatThrownBy(
            () -> store.putUnitStats(CHECKOUT_A, new UnitStats(-5, 10_000, List.of(h("a", 1)))))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("-5");
    assertThat(store.unitStats(UnitStatsQuery.of("checkout", 0, Long.MAX_VALUE))).isEmpty();
  }

  @Test
  void retentionDropsOlderIntervalsOnly() {
    store.putUnitStats(CHECKOUT_A, new UnitStats(T0 - 10_000, 10_000, List.of(h("a", 1))));
    store.putUnitStats(CHECKOUT_A, new UnitStats(T0, 10_000, List.of(h("a", 2), h("b", 2))));

    assertThat(store.deleteUnitStatsBefore(T0)).isEqualTo(1);

    assertThat(starts(UnitStatsQuery.of("checkout", 0, Long.MAX_VALUE))).containsExactly(T0, T0);
  }

  // ---- thresholds

  @Test
  void thresholdsAreReplacedPerUnitTypeAndKeptPerService() {
    store.putThresholds(
        "checkout",
        List.of(
            new StoredThreshold("a", 5_000, 300, T0), new StoredThreshold("b", 9_000, 250, T0)));
    store.putThresholds("checkout", List.of(new StoredThreshold("a", 6_000, 400, T0 + 10)));
    store.putThresholds("search", List.of(new StoredThreshold("a", 1, 1, T0)));

    assertThat(store.thresholds("checkout"))
        .containsExactlyInAnyOrder(
            new StoredThreshold("a", 6_000, 400, T0 + 10),
            new StoredThreshold("b", 9_000, 250, T0));
    assertThat(store.thresholds("search")).hasSize(1);
    assertThat(store.thresholds("nobody")).isEmpty();
  }

  // ---- violations

  @Test
  void violationsGetTimeOrderedIdsAndRoundTrip() {
    Violation v = violation("search", T0, "a.B.c(B.java:3)", "a.B.main(B.java:9)");

    List<StoredViolation> stored = store.putViolations(CHECKOUT_A, List.of(v));

    long id = stored.get(0).violationId();
    assertThat(ViolationIds.detectedEpochMillis(id)).isEqualTo(T0);
    assertThat(store.violation(id)).contains(new StoredViolation(id, CHECKOUT_A, v));
    assertThat(store.violation(id + 1)).isEmpty();
    assertThat(store.violation(-1)).isEmpty();
  }

  @Test
  void violationsAreListedNewestFirstByServiceTypeWindowAndLimit() {
    store.putViolations(
        CHECKOUT_A,
        List.of(
            violation("a", T0 + 2), violation("b", T0 + 1), violation("a", T0), violation("a", 5)));
    store.putViolations(SEARCH_A, List.of(violation("a", T0 + 3)));

    assertThat(detected(ViolationQuery.forService("checkout")))
        .containsExactly(T0 + 2, T0 + 1, T0, 5L);
    assertThat(detected(ViolationQuery.forService("checkout").withUnitType("a")))
        .containsExactly(T0 + 2, T0, 5L);
    assertThat(detected(ViolationQuery.forService("checkout").withWindow(T0, T0 + 2)))
        .containsExactly(T0 + 1, T0);
    assertThat(detected(ViolationQuery.forService("checkout").withLimit(2)))
        .containsExactly(T0 + 2, T0 + 1);
    assertThat(detected(ViolationQuery.forService("nobody"))).isEmpty();
  }

  @Test
  void violationIdsAreUniqueInOneMillisecond() {
    Set<Long> ids = new HashSet<>();
    for (int i = 0; i < 3; i++) {
      store
          .putViolations(CHECKOUT_A, List.of(violation("a", T0), violation("a", T0)))
          .forEach(v -> ids.add(v.violationId()));
    }
    assertThat(ids).hasSize(6);
  }

  @Test
  void aViolationOutsideTheStorableTimeFailsItsBatch() {
    assertThatThrownBy(
            () -> store.putViolations(CHECKOUT_A, List.of(violation("a", T0), violation("a", -1))))
        .isInstanceOf(IllegalArgumentException.class);
    assertThat(store.violations(ViolationQuery.forService("checkout"))).isEmpty();
  }

  @Test
  void retentionDropsOlderViolationsOnly() {
    store.putViolations(CHECKOUT_A, List.of(violation("a", T0 - 1), violation("a", T0)));

    assertThat(store.deleteViolationsBefore(T0)).isEqualTo(1);

    assertThat(detected(ViolationQuery.forService("checkout"))).containsExactly(T0);
  }

  // ---- unit types

  @Test
  void unitTypesKeepTheLatestInfoPerName() {
    UnitTypeInfo a1 = new UnitTypeInfo("a", "com.acme.Router.handle", List.of("x > y"), List.of());
    UnitTypeInfo a2 =
        new UnitTypeInfo("a", "com.acme.Router.handle", List.of("x > z"), List.of("Catalog.find"));
    UnitTypeInfo b = new UnitTypeInfo("b", "com.acme.Router.handle", List.of(), List.of());
    store.putUnitTypes("checkout", List.of(a1, b));
    store.putUnitTypes("checkout", List.of(a2));

    assertThat(store.unitTypes("checkout")).containsExactlyInAnyOrder(a2, b);
    assertThat(store.unitTypes("search")).isEmpty();
  }

  // ---- durability

  @Test
  void everythingSurvivesAReopen() {
    assumeTrue(supportsReopen(), "this store keeps nothing across a reopen");
    store.putUnitStats(CHECKOUT_A, new UnitStats(T0, 10_000, List.of(h("a", 1))));
    store.putThresholds("checkout", List.of(new StoredThreshold("a", 5_000, 300, T0)));
    long id = store.putViolations(CHECKOUT_A, List.of(violation("a", T0))).get(0).violationId();
    UnitTypeInfo info = new UnitTypeInfo("a", "e", List.of("c"), List.of("g"));
    store.putUnitTypes("checkout", List.of(info));

    reopen();

    assertThat(store.unitStats(UnitStatsQuery.of("checkout", 0, Long.MAX_VALUE))).hasSize(1);
    assertThat(store.thresholds("checkout"))
        .containsExactly(new StoredThreshold("a", 5_000, 300, T0));
    assertThat(store.violation(id)).isPresent();
    assertThat(store.unitTypes("checkout")).containsExactly(info);
    long next = store.putViolations(CHECKOUT_A, List.of(violation("a", T0))).get(0).violationId();
    assertThat(next).isNotEqualTo(id);
  }

  @Test
  void retentionOfUnitRecordsSurvivesAReopen() {
    assumeTrue(supportsReopen(), "this store keeps nothing across a reopen");
    store.putUnitStats(CHECKOUT_A, new UnitStats(T0 - 10_000, 10_000, List.of(h("a", 1))));
    store.putViolations(CHECKOUT_A, List.of(violation("a", T0 - 1)));
    store.deleteUnitStatsBefore(T0);
    store.deleteViolationsBefore(T0);

    reopen();

    assertThat(store.unitStats(UnitStatsQuery.of("checkout", 0, Long.MAX_VALUE))).isEmpty();
    assertThat(store.violations(ViolationQuery.forService("checkout"))).isEmpty();
    assertThat(Optional.of(store.thresholds("checkout"))).contains(List.of());
  }

  // ---- merging

  @Test
  void mergeAddsCountsSumsBucketsAndKeepsTheExtremesOfNonEmptyParts() {
    UnitHistogram merged =
        UnitHistograms.merge(
            "a",
            List.of(histogram("a", 1, 3, 4), UnitHistograms.empty("a"), histogram("a", 2, 900)));

    assertThat(merged).isEqualTo(histogram("a", 3, 3, 4, 900));
    assertThat(UnitHistograms.merge("a", List.of())).isEqualTo(UnitHistograms.empty("a"));
  }

  private static UnitHistogram h(String unitType, long maxMillis) {
    return histogram(unitType, 0, 1, maxMillis);
  }

  private List<Long> starts(UnitStatsQuery query) {
    return store.unitStats(query).stream().map(StoredUnitStats::intervalStartEpochMillis).toList();
  }

  private List<Long> detected(ViolationQuery query) {
    return store.violations(query).stream().map(v -> v.violation().detectedEpochMillis()).toList();
  }
}
