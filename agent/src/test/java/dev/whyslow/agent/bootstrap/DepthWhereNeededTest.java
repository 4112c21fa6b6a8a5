package dev.whyslow.agent.bootstrap;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Units whose trained guards need no depth ({@link Units#countDepthOnlyWhereNeeded}): what the
 * entries of ordinary and guard methods choose inside them, and what the guards infer.
 */
class DepthWhereNeededTest {
  private static final int GUARD = 300;

  private final RecordingUnitListener listener = new RecordingUnitListener();
  private ThreadState s;

  @BeforeEach
  void install() {
    Units.install(listener);
    s = Probes.state();
  }

  @AfterEach
  void uninstall() {
    Units.countDepthOnlyWhereNeeded(null);
    Units.publish(null);
    Units.setTraceShare(0);
    Units.install(null);
    UnitType.setThresholds(new long[0]);
  }

  @Test
  void insideSuchAUnitOnlyGuardMethodsRunTheirDepthCopy() {
    UnitModel m = model(new long[][] {{0L, 1L}});
    Units.publish(m);
    Units.countDepthOnlyWhereNeeded(m);

    Units.begin("com.acme.Router.handle");
    notSampledNext();
    assertThat(Entries.entry()).isEqualTo(Probes.OWN);
    assertThat(Entries.followingCountedEntry()).isEqualTo(Probes.OWN);
    notSampledNext();
    assertThat(Entries.guardEntry()).isEqualTo(Probes.DEPTH);
    assertThat(Entries.followingGuardEntry()).isEqualTo(Probes.DEPTH);
    Units.end();

    notSampledNext();
    assertThat(Entries.guardEntry()).isEqualTo(Probes.OWN);
    assertThat(Entries.entry()).isEqualTo(Probes.OWN);
  }

  @Test
  void aGuardReachedAtADepthTrainingNeverSawStillNamesTheType() {
    UnitType search = listener.typeOf("com.acme.Search");
    listener.threshold("com.acme.Search", 1);
    UnitModel m =
        new UnitModel(
            ContextTable.of(1, new int[] {GUARD}, new long[][] {{0L, 1L}}),
            new UnitType[] {search});
    Units.publish(m);
    Units.countDepthOnlyWhereNeeded(m);
    Units.begin("com.acme.Router.handle");
    overOneNanosecond();
    int depth = s.depth;
    s.depth += 7; // frames that did not count: the guard's relative depth says nothing
    s.depth = Units.enter(s, GUARD) - 1;
    s.depth = depth;
    Units.end();

    assertThat(listener.violations)
        .singleElement()
        .satisfies(
            v -> {
              assertThat(v.type()).isEqualTo("com.acme.Search");
              assertThat(v.cause()).isEqualTo(1); // caught at the guard
            });
  }

  @Test
  void tracedUnitsAndEventLoopUnitsStillCountEveryFrame() {
    UnitModel m = model(new long[][] {{0L, 1L}});
    Units.publish(m);
    Units.countDepthOnlyWhereNeeded(m);

    Units.afterWait("com.acme.Worker.loop");
    notSampledNext();
    assertThat(Entries.entry()).isEqualTo(Probes.DEPTH);
    Units.beforeWait();

    Units.setTraceShare(1);
    Units.begin("com.acme.Router.handle");
    notSampledNext();
    assertThat(Entries.entry()).isEqualTo(Probes.DEPTH);
    Units.end();
  }

  @Test
  void unitsOfAnyOtherModelCountEveryFrame() {
    UnitModel counted = model(new long[][] {{0L, 1L}});
    Units.publish(counted);
    Units.begin("com.acme.Router.handle");
    notSampledNext();
    assertThat(Entries.entry()).isEqualTo(Probes.DEPTH);
    assertThat(Entries.guardEntry()).isEqualTo(Probes.DEPTH);
    Units.end();

    Units.countDepthOnlyWhereNeeded(counted);
    Units.publish(model(new long[][] {{0L, 1L}})); // a newer model, its guards not prepared
    Units.begin("com.acme.Router.handle");
    notSampledNext();
    assertThat(Entries.entry()).isEqualTo(Probes.DEPTH);
    Units.end();
  }

  @Test
  void aModelWhoseGuardsTellTypesApartByDepthIsRefused() {
    UnitType search = listener.typeOf("com.acme.Search");
    UnitType cart = listener.typeOf("com.acme.Cart");
    UnitModel byDepth =
        new UnitModel(
            ContextTable.of(2, new int[] {GUARD}, new long[][] {{0L, 0b01, 0b10}}),
            new UnitType[] {search, cart});

    assertThatThrownBy(() -> Units.countDepthOnlyWhereNeeded(byDepth))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("by depth");
  }

  private UnitModel model(long[][] candidates) {
    return new UnitModel(
        ContextTable.of(1, new int[] {GUARD}, candidates),
        new UnitType[] {listener.typeOf("com.acme.Search")});
  }

  /** The next entries are not the sampled invocation: the countdown is far from its end. */
  private void notSampledNext() {
    s.invocations = 1_000;
    s.sampledAt = Integer.MIN_VALUE;
  }

  private static void overOneNanosecond() {
    long start = System.nanoTime();
    while (System.nanoTime() - start < 10_000) {
      Thread.onSpinWait();
    }
  }
}
