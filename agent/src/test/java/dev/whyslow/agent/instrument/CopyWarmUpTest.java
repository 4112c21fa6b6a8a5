package dev.whyslow.agent.instrument;

import static org.assertj.core.api.Assertions.assertThat;

import dev.whyslow.agent.bootstrap.Probes;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.tree.AbstractInsnNode;
import org.objectweb.asm.tree.ClassNode;
import org.objectweb.asm.tree.IincInsnNode;
import org.objectweb.asm.tree.IntInsnNode;
import org.objectweb.asm.tree.JumpInsnNode;
import org.objectweb.asm.tree.MethodNode;
import sample.fixture.WarmUpShapes;

/**
 * The copy with probes starts with an empty loop of {@link CopyWarmUp#BACK_EDGES} back-edges, which
 * the JIT counts towards compiling it; the method's own code and its depth-only copy do not. Every
 * fixture method runs its copy here (a share of 1) and must answer as its own code does.
 */
class CopyWarmUpTest {
  private CopiedFixtures.Installed installed;

  @BeforeEach
  void instrumentTheFixture() throws Exception {
    installed = CopiedFixtures.install(WarmUpShapes.class);
    Probes.setSamplingRate(1.0);
  }

  @AfterEach
  void restoreProbes() {
    Probes.setProcessRun(null);
    Probes.setSamplingRate(1e-4);
  }

  @Test
  void onlyTheCopyWithProbesStartsWithTheLoop() {
    ClassNode node = new ClassNode();
    new ClassReader(installed.bytes()).accept(node, ClassReader.EXPAND_FRAMES);
    for (String name : List.of("widened", "loopFirst", "tryFirst")) {
      MethodNode withProbes = CopiedFixtures.method(node, name + MethodCopies.SUFFIX);
      List<AbstractInsnNode> first = firstInstructions(withProbes, 5);
      assertThat(first.get(0)).as(name).isInstanceOf(IntInsnNode.class);
      assertThat(((IntInsnNode) first.get(0)).operand).isEqualTo(CopyWarmUp.BACK_EDGES);
      assertThat(first.get(1).getOpcode()).isEqualTo(Opcodes.ISTORE);
      assertThat(((IincInsnNode) first.get(2)).incr).isEqualTo(-1);
      assertThat(first.get(3).getOpcode()).isEqualTo(Opcodes.ILOAD);
      JumpInsnNode back = (JumpInsnNode) first.get(4);
      assertThat(back.getOpcode()).isEqualTo(Opcodes.IFGT);
      assertThat(withProbes.instructions.indexOf(back.label))
          .as("a backward jump, to the decrement")
          .isLessThan(withProbes.instructions.indexOf(first.get(2)));
      MethodNode own = CopiedFixtures.method(node, name);
      assertThat(firstInstructions(own, 1).get(0).getOpcode())
          .as("the own code starts with the dispatch")
          .isEqualTo(Opcodes.INVOKESTATIC);
    }
  }

  @Test
  void copiesWithTheLoopAnswerAsTheOwnCodeDoes() throws Exception {
    Class<?> copied = installed.type();
    Object instance = copied.getConstructor(int.class).newInstance(7);
    WarmUpShapes plain = new WarmUpShapes(7);
    assertThat(
            copied
                .getMethod("widened", long.class, double.class, String.class)
                .invoke(instance, 5L, 1.5, "four"))
        .isEqualTo(plain.widened(5L, 1.5, "four"));
    for (int n : new int[] {3, 11, 40}) {
      assertThat(copied.getMethod("loopFirst", int.class).invoke(null, n))
          .isEqualTo(WarmUpShapes.loopFirst(n));
    }
    for (String text : new String[] {"12", "x", "many"}) {
      assertThat(copied.getMethod("tryFirst", String.class).invoke(null, text))
          .isEqualTo(WarmUpShapes.tryFirst(text));
    }
    assertThat(CopiedFixtures.total(installed.counts())).as("the copies ran").isPositive();
  }

  private static List<AbstractInsnNode> firstInstructions(MethodNode method, int count) {
    List<AbstractInsnNode> real = new ArrayList<>();
    for (AbstractInsnNode insn : method.instructions) {
      if (insn.getOpcode() >= 0 && real.size() < count) {
        real.add(insn);
      }
    }
    return real;
  }
}
