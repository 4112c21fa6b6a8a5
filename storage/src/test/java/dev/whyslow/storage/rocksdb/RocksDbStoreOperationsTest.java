package dev.whyslow.storage.rocksdb;

import static dev.whyslow.storage.StoreFixtures.CHECKOUT_A;
import static dev.whyslow.storage.StoreFixtures.SEARCH_A;
import static dev.whyslow.storage.StoreFixtures.run;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.whyslow.protocol.Label;
import dev.whyslow.protocol.Run;
import dev.whyslow.protocol.RunKind;
import dev.whyslow.protocol.SiteCounts;
import dev.whyslow.storage.RunOrigin;
import dev.whyslow.storage.RunQuery;
import dev.whyslow.storage.ServiceSummary;
import dev.whyslow.storage.StoreException;
import dev.whyslow.storage.StoreStats;
import dev.whyslow.storage.StoredRun;
import dev.whyslow.storage.rocksdb.internal.Keys;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** What only the RocksDB store has to get right: its directory, format, engine stats, retention. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class RocksDbStoreOperationsTest {
  private static final long T0 = 1_700_000_000_000L;

  @TempDir Path dir;

  private RocksDbConfig config() {
    return RocksDbConfig.defaults(dir.resolve("db")).withMemory(8 << 20, 4 << 20);
  }

  @Test
  void aDirectoryInUseByAnotherStoreIsRefusedWithWhatToDo() {
    try (RocksDbStore first = RocksDbStore.open(config())) {
      assertThatThrownBy(() -> RocksDbStore.open(config()))
          .isInstanceOf(StoreException.class)
          .hasMessageContaining(dir.resolve("db").toString())
          .hasMessageContaining("another whyslowd");

      first.putRuns(CHECKOUT_A, List.of(run(1, T0)));
      assertThat(first.runs(RunQuery.all())).hasSize(1);
    }
    try (RocksDbStore again = RocksDbStore.open(config())) {
      assertThat(again.runs(RunQuery.all())).hasSize(1);
    }
  }

  @Test
  void aDataDirectoryThatIsAFileIsRefused() throws Exception {
    Path file = Files.writeString(dir.resolve("not-a-dir"), "x");

    assertThatThrownBy(() -> RocksDbStore.open(RocksDbConfig.defaults(file)))
        .isInstanceOf(StoreException.class)
        .hasMessageContaining(file.toString())
        .hasMessageContaining("not a directory");
  }

  @Test
  void aDirectoryWrittenByANewerFormatIsRefused() throws Exception {
    RocksDbStore.open(config()).close();
    try (RawRocksDb raw = new RawRocksDb(dir.resolve("db"))) {
      raw.put("meta", Keys.meta(Keys.META_FORMAT_VERSION), new byte[] {0, 0, 0, 99});
    }

    assertThatThrownBy(() -> RocksDbStore.open(config()))
        .isInstanceOf(StoreException.class)
        .hasMessageContaining("format 99")
        .hasMessageContaining("newer than format " + RocksDbStore.FORMAT_VERSION);
    // The failed open let go of the directory.
    try (RawRocksDb raw = new RawRocksDb(dir.resolve("db"))) {
      raw.put("meta", Keys.meta(Keys.META_FORMAT_VERSION), new byte[] {0, 0, 0, 1});
    }
    RocksDbStore.open(config()).close();
  }

  @Test
  void columnFamiliesAddedByALaterVersionDoNotStopTheStoreOpening() throws Exception {
    try (RocksDbStore store = RocksDbStore.open(config())) {
      store.putRuns(CHECKOUT_A, List.of(run(1, T0)));
    }
    try (RawRocksDb raw = new RawRocksDb(dir.resolve("db"))) {
      raw.createFamily("rollup_1m");
    }

    try (RocksDbStore store = RocksDbStore.open(config())) {
      assertThat(store.runs(RunQuery.all())).hasSize(1);
    }
  }

  @Test
  void aDamagedRunIsReportedNotSkipped() throws Exception {
    long id;
    try (RocksDbStore store = RocksDbStore.open(config())) {
      id = store.putRuns(CHECKOUT_A, List.of(run(1, T0))).get(0).runId();
    }
    try (RawRocksDb raw = new RawRocksDb(dir.resolve("db"))) {
      raw.put("runs", Keys.longKey(id), new byte[] {1, 0, 1, 5, 'a'});
    }

    try (RocksDbStore store = RocksDbStore.open(config())) {
      assertThatThrownBy(() -> store.run(id))
          .isInstanceOf(StoreException.class)
          .hasMessageContaining("unreadable")
          .hasMessageContaining("checkpoint");
      assertThatThrownBy(() -> store.runs(RunQuery.forService("checkout")))
          .isInstanceOf(StoreException.class);
    }
  }

  @Test
  void statsReportDiskAndEngineProperties() {
    try (RocksDbStore store = RocksDbStore.open(config())) {
      store.putRuns(CHECKOUT_A, List.of(run(1, T0), run(2, T0 + 1)));

      StoreStats stats = store.stats();

      assertThat(stats.runCount()).isEqualTo(2);
      assertThat(stats.diskBytes()).isPositive();
      assertThat(stats.engine())
          .containsKeys(
              "pending_compaction_bytes",
              "num_files_at_level0",
              "cur_size_all_mem_tables_bytes",
              "block_cache_usage_bytes",
              "block_cache_capacity_bytes",
              "background_errors",
              "stall_micros",
              "estimate_num_keys_runs",
              "live_sst_files_bytes");
      assertThat(stats.engine().get("cur_size_all_mem_tables_bytes")).isPositive();
      assertThat(stats.engine().get("background_errors")).isZero();
      assertThat(stats.engine().keySet()).allMatch(k -> k.matches("[a-z0-9_]+"));
    }
  }

  @Test
  void retentionCountsStayExactWhileRunsArriveInTheCutoffMinute() throws Exception {
    try (RocksDbStore store = RocksDbStore.open(config())) {
      AtomicLong stored = new AtomicLong();
      CompletableFuture<Void> writer =
          CompletableFuture.runAsync(
              () -> {
                Random random = new Random(42);
                for (int b = 0; b < 100; b++) {
                  List<Run> batch = new ArrayList<>();
                  for (int i = 0; i < 20; i++) {
                    batch.add(run(b * 20L + i, T0 + random.nextInt(300_000)));
                  }
                  RunOrigin origin = b % 2 == 0 ? CHECKOUT_A : SEARCH_A;
                  stored.addAndGet(store.putRuns(origin, batch).size());
                }
              });
      long deleted = 0;
      long cutoff = T0;
      while (!writer.isDone()) {
        cutoff += 1_234; // rarely on a minute boundary, so the partial minute is exercised
        deleted += store.deleteRunsBefore(Math.min(cutoff, T0 + 200_000));
      }
      writer.get(30, TimeUnit.SECONDS);

      long remaining = store.runs(RunQuery.all()).size();
      assertThat(deleted + remaining).isEqualTo(stored.get());
      assertThat(store.stats().runCount()).isEqualTo(remaining);
      for (ServiceSummary s : store.services()) {
        assertThat(s.runCount())
            .as(s.service())
            .isEqualTo(store.runs(RunQuery.forService(s.service())).size());
      }
    }
  }

  @Test
  void retentionOnAMinuteBoundaryNeedsNoScanAndIsExact() {
    try (RocksDbStore store = RocksDbStore.open(config())) {
      long minute = 60_000 * (T0 / 60_000);
      long lastId =
          store
              .putRuns(
                  CHECKOUT_A, List.of(run(1, minute - 1), run(2, minute), run(3, minute + 59_999)))
              .get(2)
              .runId();

      assertThat(store.deleteRunsBefore(minute)).isEqualTo(1);
      assertThat(store.deleteRunsBefore(minute + 59_999)).isEqualTo(1);
      assertThat(store.services().get(0).runCount()).isEqualTo(1);
      assertThat(store.run(lastId)).isPresent();
    }
  }

  @Test
  void retentionDropsWholeFilesOfOldRunsAndNothingReappears() throws Exception {
    try (RocksDbStore store = RocksDbStore.open(config())) {
      putWideRuns(store, 0, 5_000);
    }
    // Push the old runs out of L0: deleteFilesInRanges never drops L0 files.
    try (RawRocksDb raw = new RawRocksDb(dir.resolve("db"))) {
      raw.compact("runs");
    }
    try (RocksDbStore store = RocksDbStore.open(config())) {
      putWideRuns(store, 5_000, 6_000);
      long sstBefore = store.stats().engine().get("live_sst_files_bytes");

      long deleted = store.deleteRunsBefore(T0 + 5_000);

      assertThat(deleted).isEqualTo(5_000);
      assertThat(store.stats().engine().get("live_sst_files_bytes")).isLessThan(sstBefore);
      assertThat(store.runs(RunQuery.all())).hasSize(1_000);
    }
    try (RocksDbStore store = RocksDbStore.open(config())) {
      List<StoredRun> all = store.runs(RunQuery.all());
      assertThat(all).hasSize(1_000);
      for (StoredRun s : all) {
        assertThat(s.run().sequence()).isGreaterThanOrEqualTo(5_000);
        assertThat(s.run()).isEqualTo(wideRun(s.run().sequence()));
      }
      assertThat(store.services().get(0).runCount()).isEqualTo(1_000);
    }
  }

  private static void putWideRuns(RocksDbStore store, long fromSequence, long toSequence) {
    for (long b = fromSequence; b < toSequence; b += 250) {
      List<Run> batch = new ArrayList<>();
      for (long seq = b; seq < Math.min(b + 250, toSequence); seq++) {
        batch.add(wideRun(seq));
      }
      store.putRuns(CHECKOUT_A, batch);
    }
  }

  /** A run of about 1 KiB starting at {@code T0 + sequence}. */
  private static Run wideRun(long sequence) {
    long start = T0 + sequence;
    List<SiteCounts> sites = new ArrayList<>();
    for (int i = 0; i < 60; i++) {
      sites.add(new SiteCounts(sequence * 1_000 + i, 7, new long[] {3, 4}));
    }
    return new Run(sequence, RunKind.UNIT, start, 5, Label.DO_NOT_CARE, "u", 1, sites);
  }
}
