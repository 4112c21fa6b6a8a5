package dev.whyslow.agent.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import dev.whyslow.agent.bootstrap.Probes;
import dev.whyslow.agent.bootstrap.RunCounts;
import dev.whyslow.agent.bootstrap.UnitType;
import dev.whyslow.agent.bootstrap.Units;
import dev.whyslow.agent.config.LogLevel;
import dev.whyslow.agent.config.UnitSettings;
import dev.whyslow.protocol.Label;
import dev.whyslow.protocol.Message;
import dev.whyslow.protocol.Run;
import dev.whyslow.protocol.RunKind;
import dev.whyslow.protocol.Threshold;
import dev.whyslow.protocol.UnitHistogram;
import dev.whyslow.protocol.UnitStats;
import dev.whyslow.protocol.ViolationBatch;
import dev.whyslow.protocol.ViolationCause;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Unit ends become histograms, labelled runs and violations, as the contract says. */
class UnitRecorderTest {
  private final List<Run> runs = new CopyOnWriteArrayList<>();
  private final List<Message> messages = new CopyOnWriteArrayList<>();
  private final UnitOutput output =
      new UnitOutput() {
        @Override
        public boolean offerRun(Run run) {
          return runs.add(run);
        }

        @Override
        public boolean offerMessage(Message message) {
          return messages.add(message);
        }
      };

  @AfterEach
  void uninstall() {
    Units.install(null);
    UnitType.setThresholds(new long[0]);
  }

  private UnitRecorder recorder(boolean allRuns) {
    UnitSettings d = UnitSettings.defaults();
    UnitSettings settings =
        new UnitSettings(
            true,
            d.trainingUnits(),
            d.trainingShare(),
            d.statsIntervalMillis(),
            allRuns,
            d.watchdogIntervalMillis(),
            List.of(),
            0,
            true,
            false);
    UnitRecorder r =
        new UnitRecorder(
            settings,
            new SiteRegistry(1_000),
            output,
            new AtomicLong(),
            new AgentLog(LogLevel.WARN));
    Units.install(r);
    return r;
  }

  /** A recorder with default settings over {@code sites}, installed. */
  private UnitRecorder recorder(SiteRegistry sites) {
    UnitRecorder r =
        new UnitRecorder(
            UnitSettings.defaults(), sites, output, new AtomicLong(), new AgentLog(LogLevel.WARN));
    Units.install(r);
    return r;
  }

  @Test
  void labelsFollowTheThresholdAndNoThresholdMeansDoNotCare() {
    UnitRecorder r = recorder(true);
    Units.begin("com.acme.A.handle");
    Units.end();
    r.setThresholds(List.of(new Threshold("com.acme.A.handle", 3_600_000_000_000L, 10)));
    Units.begin("com.acme.A.handle");
    Units.end();
    r.setThresholds(List.of(new Threshold("com.acme.A.handle", 1, 10)));
    Units.begin("com.acme.A.handle");
    Units.end();
    assertThat(runs).as("built by the worker, not at the unit's end").isEmpty();
    r.flushRuns();
    assertThat(runs)
        .extracting(Run::label)
        .containsExactly(Label.DO_NOT_CARE, Label.SUCCESS, Label.FAILURE);
    assertThat(runs)
        .allSatisfy(
            run -> {
              assertThat(run.kind()).isEqualTo(RunKind.UNIT);
              assertThat(run.unitType()).isEqualTo("com.acme.A.handle");
            });
    r.flushViolations();
    ViolationBatch batch = (ViolationBatch) messages.get(0);
    assertThat(batch.violations())
        .singleElement()
        .satisfies(
            v -> {
              assertThat(v.cause()).isEqualTo(ViolationCause.UNIT_END);
              assertThat(v.runSequence()).isEqualTo(runs.get(2).sequence());
              assertThat(v.stack()).isNotEmpty();
            });
  }

  @Test
  void bySampledUnitRunsWithoutSamplesOrViolationAreNotSentButAlwaysCounted() {
    UnitRecorder r = recorder(false);
    for (int i = 0; i < 3; i++) {
      Units.begin("com.acme.B.handle");
      Units.end();
    }
    r.flushRuns();
    assertThat(runs).isEmpty();
    UnitStats stats = r.drainStats(System.currentTimeMillis() + 1);
    UnitHistogram h = stats.histograms().get(0);
    assertThat(h.unitType()).isEqualTo("com.acme.B.handle");
    assertThat(h.count()).isEqualTo(3);
    assertThat(h.violations()).isZero();
    assertThat(r.drainStats(System.currentTimeMillis() + 2)).as("only types with units").isNull();
  }

  @Test
  void samplesInsideAUnitGoToItsRun() {
    SiteRegistry sites = new SiteRegistry(1_000);
    UnitRecorder r = recorder(sites);
    int[] slots = sites.registerAll(List.of(TestSites.branch("com.acme.C", 0)));
    Units.begin("com.acme.C.handle");
    Probes.state().currentRun().increment(slots[0]);
    Probes.state().currentRun().increment(slots[0] + 1);
    Units.end();
    r.flushRuns();
    assertThat(runs)
        .singleElement()
        .satisfies(
            run -> {
              assertThat(run.sites())
                  .singleElement()
                  .satisfies(
                      c -> {
                        assertThat(c.observed()).isEqualTo(1);
                        assertThat(c.trueCounts()).containsExactly(1, 0);
                      });
            });
  }

  @Test
  void unitTypeNamesAreBoundedAndTheRestCountAsOneOverflowType() {
    UnitRecorder r = recorder(false);
    for (int i = 0; i < UnitRecorder.MAX_TYPES; i++) {
      assertThat(r.typeOf("com.acme.T" + i).name()).isEqualTo("com.acme.T" + i);
    }
    assertThat(r.typeOf("com.acme.OneTooMany").name()).isEqualTo(UnitRecorder.OVERFLOW_TYPE);
    assertThat(r.typeOf("com.acme.T7").name()).isEqualTo("com.acme.T7");
  }

  @Test
  void aRunKeepsItsUnitsCountsAfterTheThreadsCountersAreReused() {
    SiteRegistry sites = new SiteRegistry(1_000);
    UnitRecorder r = recorder(sites);
    int[] slots =
        sites.registerAll(
            List.of(TestSites.branch("com.acme.D", 0), TestSites.branch("com.acme.D", 1)));
    Units.begin("com.acme.D.handle");
    RunCounts first = Probes.state().currentRun();
    first.increment(slots[1]); // the later site first: runs list sites in slot order
    first.increment(slots[1] + 2);
    first.increment(slots[0]);
    first.increment(slots[0]);
    first.increment(slots[0] + 1);
    Units.end();
    Units.begin("com.acme.D.handle");
    Probes.state().currentRun().increment(slots[0]);
    Units.end();
    r.flushRuns();

    assertThat(runs).hasSize(2);
    assertThat(runs.get(0).sites())
        .extracting(c -> c.siteKey(), c -> c.observed(), c -> c.trueCounts()[0])
        .containsExactly(
            tuple(TestSites.branch("com.acme.D", 0).key(), 2L, 1L),
            tuple(TestSites.branch("com.acme.D", 1).key(), 1L, 0L));
    assertThat(runs.get(1).sites())
        .singleElement()
        .satisfies(c -> assertThat(c.observed()).isOne());
    assertThat(runs.get(0).sequence()).isLessThan(runs.get(1).sequence());
  }

  @Test
  void theWorkerIsWokenOnceWhenRunsPileUp() {
    UnitRecorder r = recorder(true);
    AtomicLong wakeUps = new AtomicLong();
    r.onBacklog(wakeUps::incrementAndGet);
    for (int i = 1; i < UnitRecorder.PENDING_RUNS_WAKE_AT; i++) {
      Units.begin("com.acme.F.handle");
      Units.end();
    }
    assertThat(wakeUps).hasValue(0);
    for (int i = 0; i < 10; i++) {
      Units.begin("com.acme.F.handle");
      Units.end();
    }
    assertThat(wakeUps).as("once, at the backlog, not at every unit after it").hasValue(1);
    r.flushRuns();
    Units.begin("com.acme.F.handle");
    Units.end();
    assertThat(wakeUps).hasValue(1);
  }

  @Test
  void whenTheWorkerIsBehindTheUnitsThreadBuildsTheRunItself() {
    UnitRecorder r = recorder(true);
    for (int i = 0; i < UnitRecorder.PENDING_RUNS_MAX; i++) {
      Units.begin("com.acme.E.handle");
      Units.end();
    }
    assertThat(runs).isEmpty();
    Units.begin("com.acme.E.handle");
    Units.end();
    assertThat(runs).as("nothing dropped, nothing queued past the cap").hasSize(1);
    r.flushRuns();
    assertThat(runs).hasSize(UnitRecorder.PENDING_RUNS_MAX + 1);
  }
}
