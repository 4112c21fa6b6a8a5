package dev.whyslow.agent.instrument;

import java.util.List;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.tree.FrameNode;
import org.objectweb.asm.tree.IincInsnNode;
import org.objectweb.asm.tree.InsnList;
import org.objectweb.asm.tree.IntInsnNode;
import org.objectweb.asm.tree.JumpInsnNode;
import org.objectweb.asm.tree.LabelNode;
import org.objectweb.asm.tree.MethodNode;
import org.objectweb.asm.tree.VarInsnNode;

/**
 * An empty counted loop at the start of a copy with probes, so that the JIT compiles the copy with
 * C2 after some 600 of its invocations instead of 5,000. A copy runs one invocation of its method
 * in {@code 1 / share} (20 by default), so without the loop a method called 50 times a second ran
 * its copy in C1's profiled code for half an hour, and a service's sampled requests paid for it at
 * the p99 (bench/LATENCY.md). HotSpot's tiered policy sends a method to C2 after 5,000 invocations,
 * or after 600 once invocations plus loop back-edges reach 15,000; the loop's {@value #BACK_EDGES}
 * back-edges per invocation meet the second rule at its floor of 600. C2 then deletes the loop,
 * which has no effect, so the compiled copy does not pay for it; until then it costs a few
 * nanoseconds per copy invocation. The JVM option {@code CompileThresholdScaling} does the same for
 * every copy, but an agent cannot set it for itself.
 */
final class CopyWarmUp {
  /**
   * Back-edges per invocation: 24 reach the threshold at the 600th invocation; 32 leave room for
   * the policy's scaling under a long compile queue, which scales both thresholds alike.
   */
  static final int BACK_EDGES = 32;

  private CopyWarmUp() {}

  /**
   * Puts the loop in front of {@code copy}'s code, its counter in a new local. (On the operand
   * stack the counter made the JIT's attempts at compiling the loop on its own, on stack
   * replacement, fail, and retry at another tier.)
   */
  static void prepend(String owner, MethodNode copy) {
    int left = copy.maxLocals; // a new local, used only here
    copy.maxLocals++;
    LabelNode again = new LabelNode();
    InsnList loop = new InsnList();
    // stack: (empty, method entry)
    loop.add(new IntInsnNode(Opcodes.BIPUSH, BACK_EDGES));
    loop.add(new VarInsnNode(Opcodes.ISTORE, left));
    loop.add(again);
    List<Object> locals = MethodCopies.entryLocals(owner, copy);
    int slots = 0;
    for (Object local : locals) {
      slots += local == Opcodes.LONG || local == Opcodes.DOUBLE ? 2 : 1;
    }
    for (; slots < left; slots++) {
      locals.add(Opcodes.TOP);
    }
    locals.add(Opcodes.INTEGER);
    loop.add(new FrameNode(Opcodes.F_NEW, locals.size(), locals.toArray(), 0, new Object[0]));
    loop.add(new IincInsnNode(left, -1));
    loop.add(new VarInsnNode(Opcodes.ILOAD, left));
    // stack: left
    loop.add(new JumpInsnNode(Opcodes.IFGT, again));
    copy.instructions.insert(loop);
    copy.maxStack = Math.max(copy.maxStack, 1);
  }
}
