package dev.whyslow.agent.instrument;

import static org.assertj.core.api.Assertions.assertThat;

import dev.whyslow.agent.config.ProbeSet;
import dev.whyslow.agent.core.SiteRegistry;
import java.io.InputStream;
import org.junit.jupiter.api.Test;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.tree.AbstractInsnNode;
import org.objectweb.asm.tree.ClassNode;
import org.objectweb.asm.tree.IincInsnNode;
import org.objectweb.asm.tree.LdcInsnNode;
import org.objectweb.asm.tree.MethodNode;
import sample.fixture.LoopShapes;

/**
 * Which methods get the fast path: those with a loop that holds a probe and calls nothing. A loop
 * that calls out on every iteration keeps its checked probes, and so does a loop settled at its
 * exit in a method that calls out (see {@code FastPathPlan}).
 */
class FastPathChoiceTest {
  /** Fixture: the same count with and without a call in the loop. */
  @SuppressWarnings("unused")
  static final class Loops {
    static int callFree(int[] xs) {
      int n = 0;
      for (int x : xs) {
        if (x > 3) {
          n++;
        }
      }
      return n;
    }

    static int callsOut(int[] xs, StringBuilder out) {
      int n = 0;
      for (int x : xs) {
        if (x > 3) {
          n++;
        }
        out.append(x);
      }
      return n;
    }

    static int settledLoopAlone(int[] xs) {
      int n = 0;
      int sum = 0;
      for (int x : xs) {
        sum += x;
        n++;
      }
      return n == 0 ? 0 : sum / n;
    }

    static int settledLoopAmongCalls(int[] xs, StringBuilder out) {
      out.append(xs.length);
      int n = 0;
      int sum = 0;
      for (int x : xs) {
        sum += x;
        n++;
      }
      out.append(sum);
      return n;
    }

    static int callBeforeTheLoop(int[] xs, StringBuilder out) {
      out.append(xs.length);
      int n = 0;
      for (int x : xs) {
        if (x > 3) {
          n++;
        }
      }
      return n;
    }
  }

  @Test
  void onlyMethodsWithACallFreeLoopHoldingAProbeOrSettledLoopsAndNoCallGetTheFastPath()
      throws Exception {
    byte[] original;
    try (InputStream in = Loops.class.getResourceAsStream("FastPathChoiceTest$Loops.class")) {
      original = in.readAllBytes();
    }
    InstrumentationCounters counters = new InstrumentationCounters();
    byte[] out =
        new ClassInstrumenter(new SiteRegistry(10_000), ProbeSet.DEFAULT, counters)
            .instrument(original);
    assertThat(counters.methodsWithFastPath()).isEqualTo(3);
    ClassNode node = new ClassNode();
    new ClassReader(out).accept(node, 0);
    assertThat(copiesOf(node, "callFree")).isEqualTo(2);
    assertThat(copiesOf(node, "callBeforeTheLoop")).isEqualTo(2);
    assertThat(copiesOf(node, "callsOut")).isEqualTo(1);
    assertThat(copiesOf(node, "settledLoopAlone")).isEqualTo(2);
    assertThat(copiesOf(node, "settledLoopAmongCalls")).isEqualTo(1);
  }

  @Test
  void aLoopWhoseRegionCanEvaluateOneProbeGetsNoCheckSoItsNestStaysOneLoopForTheJit()
      throws Exception {
    // A check there saves no compare, and its jump into the slow copy's loop would make the nest
    // irreducible, which C2 leaves unoptimised (bench/README.md, twenty-fifth session).
    ClassNode loops = instrumented(Loops.class, "FastPathChoiceTest$Loops.class");
    ClassNode shapes = instrumented(LoopShapes.class, "LoopShapes.class");

    // The entry's and the outermost loop's, whose exit path evaluates the return probe too; not
    // the inner loops', whose regions hold one probe each (they had two more checks before).
    assertThat(checksIn(shapes, "innerProducts")).isEqualTo(2);
    assertThat(checksIn(loops, "callFree"))
        .as("the entry's, and the loop's: two probes an iteration")
        .isEqualTo(2);
  }

  private static ClassNode instrumented(Class<?> fixture, String resource) throws Exception {
    byte[] original;
    try (InputStream in = fixture.getResourceAsStream(resource)) {
      original = in.readAllBytes();
    }
    byte[] out =
        new ClassInstrumenter(
                new SiteRegistry(10_000), ProbeSet.DEFAULT, new InstrumentationCounters())
            .instrument(original);
    ClassNode node = new ClassNode();
    new ClassReader(out).accept(node, 0);
    return node;
  }

  /** The fast path's checks in the method: a local, a constant weight, {@code if_icmple}. */
  private static int checksIn(ClassNode node, String name) {
    MethodNode method =
        node.methods.stream().filter(m -> m.name.equals(name)).findFirst().orElseThrow();
    int checks = 0;
    for (AbstractInsnNode insn : method.instructions) {
      if (insn.getOpcode() == Opcodes.IF_ICMPLE
          && isIntConstant(insn.getPrevious())
          && insn.getPrevious().getPrevious().getOpcode() == Opcodes.ILOAD) {
        checks++;
      }
    }
    return checks;
  }

  private static boolean isIntConstant(AbstractInsnNode insn) {
    int op = insn.getOpcode();
    return (op >= Opcodes.ICONST_M1 && op <= Opcodes.ICONST_5)
        || op == Opcodes.BIPUSH
        || op == Opcodes.SIPUSH
        || (insn instanceof LdcInsnNode ldc && ldc.cst instanceof Integer);
  }

  /**
   * How many copies of its code the method holds: each copy has the fixture's two increments, the
   * count's {@code n++} and the for-each loop's index (the agent's own decrements are by -1).
   */
  private static int copiesOf(ClassNode node, String name) {
    MethodNode method =
        node.methods.stream().filter(m -> m.name.equals(name)).findFirst().orElseThrow();
    int increments = 0;
    for (var insn : method.instructions) {
      if (insn instanceof IincInsnNode iinc && iinc.incr == 1) {
        increments++;
      }
    }
    return increments / 2;
  }
}
