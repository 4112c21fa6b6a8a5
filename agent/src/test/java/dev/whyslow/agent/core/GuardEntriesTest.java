package dev.whyslow.agent.core;

import static org.assertj.core.api.Assertions.assertThat;

import dev.whyslow.agent.bootstrap.ContextTable;
import dev.whyslow.agent.bootstrap.Entries;
import dev.whyslow.agent.bootstrap.Probes;
import dev.whyslow.agent.bootstrap.RecordingUnitListener;
import dev.whyslow.agent.bootstrap.UnitModel;
import dev.whyslow.agent.bootstrap.UnitType;
import dev.whyslow.agent.bootstrap.Units;
import dev.whyslow.agent.config.LogLevel;
import dev.whyslow.agent.instrument.GuardMethods;
import dev.whyslow.agent.units.training.UnitCallTrace;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.lang.instrument.Instrumentation;
import java.lang.reflect.Proxy;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * What the agent does after training with guards that need the depth, and with guards that don't.
 */
class GuardEntriesTest {
  /** Stands for a class holding a guard method. */
  static final class Router {
    void handle() {}
  }

  /** Stands for a class whose methods the training traces entered, none a guard. */
  static final class Pages {
    void render() {}
  }

  private final ByteArrayOutputStream logged = new ByteArrayOutputStream();
  private final AgentLog log =
      new AgentLog(LogLevel.INFO, new PrintStream(logged, true, StandardCharsets.UTF_8));
  private final MethodRegistry methods = new MethodRegistry();
  private final GuardMethods guards = new GuardMethods();
  private final RecordingUnitListener listener = new RecordingUnitListener();
  private final List<Class<?>> retransformed = new ArrayList<>();
  private RuntimeException refusal;
  private int guardId;

  @BeforeEach
  void install() {
    guardId = methods.idOf(Router.class.getName(), "handle", "()V");
    Units.install(listener);
    Probes.setSamplingRate(1e-6, 1e-6); // no invocation here is the sampled one
  }

  @AfterEach
  void uninstall() {
    Units.countDepthOnlyWhereNeeded(null);
    Units.publish(null);
    Units.install(null);
    Probes.setSamplingRate(1e-4);
  }

  @Test
  void guardsThatNeedNoDepthGetTheirEntryAndUnitsThenCountOnlyTheirFrames() {
    UnitModel m = publish(new long[][] {{0L, 1L, 1L}});
    int traced = methods.idOf(Pages.class.getName(), "render", "()V");

    entries(false)
        .afterTraining(
            m, List.of(new UnitCallTrace("router", new int[] {guardId, traced}, new int[] {1, 2})));

    // the traced class too, so that its methods' profiles start afresh
    assertThat(retransformed).containsExactlyInAnyOrder(Router.class, Pages.class);
    assertThat(guards.contains(guardId)).isTrue();
    assertThat(entryInAUnit()).isEqualTo(Probes.OWN);
    assertThat(logged.toString(StandardCharsets.UTF_8))
        .contains("units count depth only in the 1 guard methods (2 classes");
  }

  @Test
  void aRefusedRetransformationLeavesEveryFrameCounting() {
    refusal = new UnsupportedOperationException("class redefinition failed");
    UnitModel m = publish(new long[][] {{0L, 1L}});

    entries(false).afterTraining(m, List.of());

    assertThat(guards.contains(guardId)).isFalse();
    assertThat(entryInAUnit()).isEqualTo(Probes.DEPTH);
    assertThat(logged.toString(StandardCharsets.UTF_8))
        .contains("could not retransform the guards' classes")
        .contains("every frame of a unit goes on counting its depth");
  }

  @Test
  void guardsThatTellTypesApartByDepthChangeNothing() {
    UnitModel m =
        new UnitModel(
            ContextTable.of(2, new int[] {guardId}, new long[][] {{0L, 0b01, 0b10}}),
            new UnitType[] {listener.typeOf("search"), listener.typeOf("cart")});
    Units.publish(m);

    entries(false).afterTraining(m, List.of());

    assertThat(retransformed).isEmpty();
    assertThat(guards.contains(guardId)).isFalse();
    assertThat(entryInAUnit()).isEqualTo(Probes.DEPTH);
    assertThat(logged.toString(StandardCharsets.UTF_8)).contains("apart by depth");
  }

  @Test
  void unitsDepthAllKeepsEveryFrameCounting() {
    UnitModel m = publish(new long[][] {{0L, 1L}});

    entries(true).afterTraining(m, List.of());

    assertThat(retransformed).isEmpty();
    assertThat(entryInAUnit()).isEqualTo(Probes.DEPTH);
  }

  private UnitModel publish(long[][] candidates) {
    UnitModel m =
        new UnitModel(
            ContextTable.of(1, new int[] {guardId}, candidates),
            new UnitType[] {listener.typeOf("search")});
    Units.publish(m);
    return m;
  }

  private GuardEntries entries(boolean depthInEveryFrame) {
    return new GuardEntries(depthInEveryFrame, true, methods, guards, instrumentation(), log);
  }

  /** What a method's entry chooses inside a unit started now. */
  private static int entryInAUnit() {
    Units.begin("com.acme.Router.handle");
    try {
      return Entries.entry();
    } finally {
      Units.end();
    }
  }

  /**
   * Sees this test's classes loaded; retransforms by recording, or refuses with {@link #refusal}.
   */
  private Instrumentation instrumentation() {
    return (Instrumentation)
        Proxy.newProxyInstance(
            getClass().getClassLoader(),
            new Class<?>[] {Instrumentation.class},
            (proxy, method, args) ->
                switch (method.getName()) {
                  case "getAllLoadedClasses" ->
                      new Class<?>[] {String.class, Router.class, Pages.class};
                  case "isModifiableClass" -> true;
                  case "retransformClasses" -> {
                    if (refusal != null) {
                      throw refusal;
                    }
                    retransformed.addAll(Arrays.asList((Class<?>[]) args[0]));
                    yield null;
                  }
                  default -> throw new UnsupportedOperationException(method.getName());
                });
  }
}
