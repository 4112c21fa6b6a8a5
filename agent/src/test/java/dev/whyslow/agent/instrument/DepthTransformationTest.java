package dev.whyslow.agent.instrument;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.whyslow.agent.bootstrap.Probes;
import dev.whyslow.agent.config.ProbeSet;
import dev.whyslow.agent.core.MethodRegistry;
import dev.whyslow.agent.core.SiteRegistry;
import java.io.InputStream;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.tree.AbstractInsnNode;
import org.objectweb.asm.tree.ClassNode;
import org.objectweb.asm.tree.MethodInsnNode;
import org.objectweb.asm.tree.MethodNode;
import sample.fixture.Depths;

/**
 * Every instrumented method with a probe or a call outside java.lang counts depth, unless it is
 * short, calls only the JDK and has no loop or handler ({@link DepthCounting}): one more at entry,
 * put back at returns, throws and handlers, so exceptions never leave it wrong; leaf methods stay
 * untouched.
 */
class DepthTransformationTest {
  private byte[] instrumented;
  private Class<?> fixture;

  @BeforeEach
  void instrument() throws Exception {
    byte[] original;
    try (InputStream in = Depths.class.getResourceAsStream("Depths.class")) {
      original = in.readAllBytes();
    }
    instrumented =
        ClassInstrumenter.builder(
                new SiteRegistry(10_000), ProbeSet.DEFAULT, new InstrumentationCounters())
            .methods(new MethodRegistry())
            .units(true, List.of())
            .build()
            .instrument(original);
    fixture =
        Class.forName(Depths.class.getName(), true, new BytesLoader(Depths.class, instrumented));
  }

  @Test
  void aCalleeIsOneDeeperAndTheDepthIsRestoredOnReturn() throws Exception {
    int before = Probes.state().depth;
    assertThat(call("calleeDepth")).isEqualTo(1);
    assertThat(Probes.state().depth).isEqualTo(before);
  }

  @Test
  void anExceptionThrownThroughFramesLeavesTheCatchingFramesDepth() throws Exception {
    int before = Probes.state().depth;
    assertThat(call("afterThrow")).isZero();
    assertThat(call("afterImplicitException")).isZero();
    assertThat(Probes.state().depth).isEqualTo(before);
  }

  @Test
  void afterAnExceptionEscapesInstrumentedCodeRelativeDepthsAreStillRight() throws Exception {
    Method m = fixture.getMethod("throwsOut");
    assertThatThrownBy(() -> m.invoke(null))
        .isInstanceOf(InvocationTargetException.class)
        .hasCauseInstanceOf(IllegalStateException.class);
    // Frames unwound without a handler of their own are corrected by the next instrumented
    // handler; until then the count is offset, but a unit measures depth relative to its start.
    assertThat(call("calleeDepth")).isEqualTo(1);
    assertThat(call("afterThrow")).isZero();
  }

  @Test
  void withUnitsOffOnlyProbesAreInserted() throws Exception {
    byte[] original;
    try (InputStream in = Depths.class.getResourceAsStream("Depths.class")) {
      original = in.readAllBytes();
    }
    byte[] probesOnly =
        new ClassInstrumenter(
                new SiteRegistry(10_000), ProbeSet.DEFAULT, new InstrumentationCounters())
            .instrument(original);
    ClassNode node = new ClassNode();
    new ClassReader(probesOnly).accept(node, 0);
    for (MethodNode m : node.methods) {
      for (AbstractInsnNode insn : m.instructions) {
        if (insn instanceof MethodInsnNode call) {
          assertThat(call.owner).isNotIn(MethodRewriter.UNITS, MethodRewriter.UNIT_ENTRIES);
        }
      }
    }
    Class<?> c =
        Class.forName(Depths.class.getName(), true, new BytesLoader(Depths.class, probesOnly));
    assertThat(c.getMethod("afterThrow").invoke(null)).isEqualTo(0);
  }

  @Test
  void leafMethodsAreNotTouched() throws Exception {
    ClassNode node = new ClassNode();
    new ClassReader(instrumented).accept(node, 0);
    MethodNode size = node.methods.stream().filter(m -> m.name.equals("size")).findFirst().get();
    for (AbstractInsnNode insn : size.instructions) {
      assertThat(insn).isNotInstanceOf(MethodInsnNode.class);
    }
    Object o = fixture.getMethod("create").invoke(null);
    assertThat(fixture.getMethod("size").invoke(o)).isEqualTo(3);
  }

  @Test
  void aMethodWithoutProbesCountsDepthOnlyWhenItCallsOutsideJavaLang() throws Exception {
    ClassNode node = new ClassNode();
    new ClassReader(instrumented).accept(node, 0);
    // The constructor calls only Object's: no probe, and nothing it calls can count depth.
    assertThat(callsUnits(method(node, "<init>"))).isFalse();
    // throwsOut has no probe either, but calls a method that counts depth.
    assertThat(callsUnits(method(node, "throwsOut"))).isTrue();
    assertThat(fixture.getMethod("size").invoke(fixture.getMethod("create").invoke(null)))
        .isEqualTo(3);
  }

  @Test
  void aShortMethodWithoutALoopDoesNotCountItsFrame() throws Exception {
    int before = Probes.state().depth;
    assertThat(call("shortCalleeDepth")).isZero();
    assertThat(Probes.state().depth).isEqualTo(before);
    ClassNode node = new ClassNode();
    new ClassReader(instrumented).accept(node, 0);
    assertThat(callsUnits(method(node, "shortChild"))).as("probes, but no depth count").isFalse();
    assertThat(callsUnits(method(node, "calleeDepth"))).isTrue();
  }

  private static MethodNode method(ClassNode node, String name) {
    return node.methods.stream().filter(m -> m.name.equals(name)).findFirst().orElseThrow();
  }

  private static boolean callsUnits(MethodNode method) {
    for (AbstractInsnNode insn : method.instructions) {
      if (insn instanceof MethodInsnNode call && call.owner.equals(MethodRewriter.UNIT_ENTRIES)) {
        return true;
      }
    }
    return false;
  }

  private int call(String name) throws Exception {
    return (int) fixture.getMethod(name).invoke(null);
  }
}
