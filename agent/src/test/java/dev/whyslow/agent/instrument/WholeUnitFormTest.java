package dev.whyslow.agent.instrument;

import static org.assertj.core.api.Assertions.assertThat;

import dev.whyslow.agent.bootstrap.ContextTable;
import dev.whyslow.agent.bootstrap.Probes;
import dev.whyslow.agent.bootstrap.RecordingUnitListener;
import dev.whyslow.agent.bootstrap.UnitModel;
import dev.whyslow.agent.bootstrap.UnitType;
import dev.whyslow.agent.bootstrap.Units;
import dev.whyslow.agent.config.ProbeSet;
import dev.whyslow.agent.core.MethodRegistry;
import dev.whyslow.agent.core.SiteRegistry;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.tree.AbstractInsnNode;
import org.objectweb.asm.tree.ClassNode;
import org.objectweb.asm.tree.InvokeDynamicInsnNode;
import org.objectweb.asm.tree.MethodInsnNode;
import org.objectweb.asm.tree.MethodNode;
import sample.fixture.Depths;

/**
 * The form where units are chosen whole ({@link UnitChoice}): a method keeps the code javac wrote
 * unless it is a root or a guard, a copy calls its callees' copies, and a chosen unit counts every
 * frame through them while a unit not chosen counts only the guard's.
 */
class WholeUnitFormTest {
  private final RecordingUnitListener listener = new RecordingUnitListener();
  private final MethodRegistry methods = new MethodRegistry();
  private byte[] instrumented;
  private Class<?> fixture;
  private int guardId;

  @BeforeEach
  void instrument() throws Exception {
    byte[] original;
    try (InputStream in = Depths.class.getResourceAsStream("Depths.class")) {
      original = in.readAllBytes();
    }
    guardId = methods.idOf(Depths.class.getName(), "calleeDepth", "()I");
    int rootId = methods.idOf(Depths.class.getName(), "throughShortCaller", "()I");
    GuardMethods guards = new GuardMethods();
    guards.set(new int[] {guardId});
    UnitChoice choice = new UnitChoice();
    choice.set(new int[] {rootId});
    instrumented =
        ClassInstrumenter.builder(
                new SiteRegistry(10_000), ProbeSet.DEFAULT, new InstrumentationCounters())
            .methods(methods)
            .units(true, List.of())
            .copies(true)
            .guards(guards)
            .unitChoice(choice, name -> name.startsWith("sample/fixture/"), true)
            .build()
            .instrument(original);
    fixture =
        Class.forName(Depths.class.getName(), true, new BytesLoader(Depths.class, instrumented));
    Units.install(listener);
  }

  @AfterEach
  void uninstall() {
    Units.chooseUnits(false);
    Units.countDepthOnlyWhereNeeded(null);
    Units.publish(null);
    CopiedFixtures.uninstall();
  }

  @Test
  void onlyRootsAndGuardsAskAtTheirEntryAndCopiesCallCopies() {
    assertThat(entriesAskedBy("calleeDepth")).containsExactly("worldGuardEntry");
    assertThat(entriesAskedBy("throughShortCaller")).containsExactly("worldEntry");
    assertThat(entriesAskedBy("child")).as("the code javac wrote").isEmpty();
    assertThat(linkedCallsOf("calleeDepth$whyslow")).containsExactly("child");
  }

  @Test
  void aChosenUnitCountsEveryFrameThroughTheCopiesAndAnotherOnlyTheGuards() throws Exception {
    UnitType search = listener.typeOf("com.acme.Search");
    UnitModel m =
        new UnitModel(
            ContextTable.of(1, new int[] {guardId}, new long[][] {{0L, 1L}}),
            new UnitType[] {search});
    Units.publish(m);
    Units.countDepthOnlyWhereNeeded(m);
    Units.chooseUnits(true);

    Probes.setSamplingRate(0.1, 1.0); // every unit chosen
    Units.begin("com.acme.Router.handle");
    assertThat(call("calleeDepth")).as("chosen: the child's copy counts").isEqualTo(1);
    assertThat(call("throughShortCaller")).as("the root's copy, then copies").isEqualTo(2);
    Units.end();

    Probes.setSamplingRate(1e-6, 1e-6); // no unit chosen (one in a million)
    Units.begin("com.acme.Router.handle");
    assertThat(call("calleeDepth")).as("not chosen: the child's own code").isZero();
    Units.end();

    assertThat(listener.ended)
        .hasSize(2)
        .allSatisfy(e -> assertThat(e.type()).isEqualTo("com.acme.Search"));
  }

  private int call(String method) throws Exception {
    return (int) fixture.getMethod(method).invoke(null);
  }

  /** The {@code Entries} entries {@code name}'s own code calls. */
  private List<String> entriesAskedBy(String name) {
    List<String> entries = new ArrayList<>();
    for (AbstractInsnNode insn : method(name).instructions) {
      if (insn instanceof MethodInsnNode call
          && call.owner.equals(MethodRewriter.ENTRIES)
          && call.name.toLowerCase().contains("entry")) {
        entries.add(call.name);
      }
    }
    return entries;
  }

  /** The calls of {@code name} linked by {@code WorldCalls}. */
  private List<String> linkedCallsOf(String name) {
    List<String> calls = new ArrayList<>();
    for (AbstractInsnNode insn : method(name).instructions) {
      if (insn instanceof InvokeDynamicInsnNode indy
          && indy.bsm.getOwner().endsWith("WorldCalls")) {
        calls.add(indy.name);
      }
    }
    return calls;
  }

  private MethodNode method(String name) {
    ClassNode node = new ClassNode();
    new ClassReader(instrumented).accept(node, 0);
    return node.methods.stream().filter(m -> m.name.equals(name)).findFirst().orElseThrow();
  }
}
