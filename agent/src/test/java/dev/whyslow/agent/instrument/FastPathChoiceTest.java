package dev.whyslow.agent.instrument;

import static org.assertj.core.api.Assertions.assertThat;

import dev.whyslow.agent.config.ProbeSet;
import dev.whyslow.agent.core.SiteRegistry;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.tree.AbstractInsnNode;
import org.objectweb.asm.tree.ClassNode;
import org.objectweb.asm.tree.IincInsnNode;
import org.objectweb.asm.tree.LdcInsnNode;
import org.objectweb.asm.tree.MethodNode;

/**
 * Which methods get the fast path: those with a loop that holds a probe and calls nothing. A loop
 * that calls out on every iteration keeps its checked probes (see {@code FastPathPlan}); and only
 * innermost loops check which copy to run ({@code InnermostLoops}).
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

    static int nested(int[][] rows) {
      int n = 0;
      for (int[] row : rows) {
        for (int x : row) {
          if (x > 3) {
            n++;
          }
        }
      }
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

  private final InstrumentationCounters counters = new InstrumentationCounters();

  @Test
  void onlyMethodsWithACallFreeLoopHoldingAProbeGetTheFastPath() throws Exception {
    ClassNode node = instrumented();
    assertThat(counters.methodsWithFastPath()).isEqualTo(3);
    assertThat(copiesOf(node, "callFree")).isEqualTo(2);
    assertThat(copiesOf(node, "callBeforeTheLoop")).isEqualTo(2);
    assertThat(copiesOf(node, "callsOut")).isEqualTo(1);
  }

  /**
   * A check outside an innermost loop (the entry, the outer loop's header) runs a few times per
   * invocation, so it always sends control to the slow copy: its weight is {@code
   * FastPathPlan.ALWAYS_SLOW}, and C2 never sees a side of it untaken. The inner loop's header
   * keeps a real check, {@code if (cd <= weight)}, with the weight of one iteration.
   */
  @Test
  void onlyChecksInsideAnInnermostLoopCanChooseTheFastCopy() throws Exception {
    MethodNode nested = method(instrumented(), "nested");
    List<Integer> weights = new ArrayList<>();
    for (AbstractInsnNode insn : nested.instructions) {
      AbstractInsnNode push = insn.getPrevious();
      if (insn.getOpcode() == Opcodes.IF_ICMPLE
          && push != null
          && push.getPrevious() != null
          && push.getPrevious().getOpcode() == Opcodes.ILOAD) {
        if (push instanceof LdcInsnNode ldc && ldc.cst instanceof Integer w) {
          weights.add(w);
        } else if (push.getOpcode() >= Opcodes.ICONST_0 && push.getOpcode() <= Opcodes.ICONST_5) {
          weights.add(push.getOpcode() - Opcodes.ICONST_0);
        }
      }
    }
    assertThat(weights)
        .containsOnly(FastPathPlan.ALWAYS_SLOW, 2)
        .filteredOn(w -> w == FastPathPlan.ALWAYS_SLOW)
        .hasSize(2);
  }

  private ClassNode instrumented() throws Exception {
    byte[] original;
    try (InputStream in = Loops.class.getResourceAsStream("FastPathChoiceTest$Loops.class")) {
      original = in.readAllBytes();
    }
    byte[] out =
        new ClassInstrumenter(new SiteRegistry(10_000), ProbeSet.DEFAULT, counters)
            .instrument(original);
    ClassNode node = new ClassNode();
    new ClassReader(out).accept(node, 0);
    return node;
  }

  private static MethodNode method(ClassNode node, String name) {
    return node.methods.stream().filter(m -> m.name.equals(name)).findFirst().orElseThrow();
  }

  /**
   * How many copies of its code the method holds: each copy has the fixture's two increments, the
   * count's {@code n++} and the for-each loop's index (the agent's own decrements are by -1).
   */
  private static int copiesOf(ClassNode node, String name) {
    MethodNode method = method(node, name);
    int increments = 0;
    for (var insn : method.instructions) {
      if (insn instanceof IincInsnNode iinc && iinc.incr == 1) {
        increments++;
      }
    }
    return increments / 2;
  }
}
