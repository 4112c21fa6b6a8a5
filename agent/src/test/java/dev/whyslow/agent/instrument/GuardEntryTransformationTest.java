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
import org.objectweb.asm.tree.MethodInsnNode;
import org.objectweb.asm.tree.MethodNode;
import sample.fixture.Depths;

/**
 * A guard method's dispatch asks {@code Entries.guardEntry()} ({@link GuardMethods}), so that in a
 * unit whose guards need no depth it still counts its frame and reaches the guard while the other
 * methods run their own code.
 */
class GuardEntryTransformationTest {
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
    GuardMethods guards = new GuardMethods();
    guards.set(new int[] {guardId});
    instrumented =
        ClassInstrumenter.builder(
                new SiteRegistry(10_000), ProbeSet.DEFAULT, new InstrumentationCounters())
            .methods(methods)
            .units(true, List.of())
            .copies(true)
            .guards(guards)
            .build()
            .instrument(original);
    fixture =
        Class.forName(Depths.class.getName(), true, new BytesLoader(Depths.class, instrumented));
    Units.install(listener);
    Probes.setSamplingRate(1e-6, 1e-6); // no invocation here is the sampled one
  }

  @AfterEach
  void uninstall() {
    Units.countDepthOnlyWhereNeeded(null);
    Units.publish(null);
    CopiedFixtures.uninstall();
  }

  @Test
  void onlyTheGuardMethodsDispatchAsksForTheGuardsEntry() {
    assertThat(entriesAskedBy("calleeDepth")).containsExactly("guardEntry");
    assertThat(entriesAskedBy("child")).containsExactly("entry");
  }

  @Test
  void inAUnitCountingOnlyGuardsTheGuardCountsItsFrameAndItsCalleeDoesNot() throws Exception {
    UnitType search = listener.typeOf("com.acme.Search");
    UnitModel m =
        new UnitModel(
            ContextTable.of(1, new int[] {guardId}, new long[][] {{0L, 1L}}),
            new UnitType[] {search});
    Units.publish(m);

    Units.begin("com.acme.Router.handle");
    assertThat(calleeDepth()).isEqualTo(1); // every frame counts: child is one deeper
    Units.end();

    Units.countDepthOnlyWhereNeeded(m);
    Units.begin("com.acme.Router.handle");
    assertThat(calleeDepth()).isZero(); // child ran its own code, at the guard's depth
    Units.end();

    assertThat(listener.ended)
        .hasSize(2)
        .allSatisfy(e -> assertThat(e.type()).isEqualTo("com.acme.Search")); // the guard's type
  }

  private int calleeDepth() throws Exception {
    return (int) fixture.getMethod("calleeDepth").invoke(null);
  }

  /** The {@code Probes} entries {@code name}'s own code calls (its dispatch). */
  private List<String> entriesAskedBy(String name) {
    ClassNode node = new ClassNode();
    new ClassReader(instrumented).accept(node, 0);
    List<String> entries = new ArrayList<>();
    for (MethodNode method : node.methods) {
      if (!method.name.equals(name)) {
        continue;
      }
      for (AbstractInsnNode insn : method.instructions) {
        if (insn instanceof MethodInsnNode call
            && call.owner.equals(MethodRewriter.ENTRIES)
            && call.name.toLowerCase().contains("entry")) {
          entries.add(call.name);
        }
      }
    }
    return entries;
  }
}
