package dev.whyslow.agent.instrument;

import org.objectweb.asm.Opcodes;
import org.objectweb.asm.tree.AbstractInsnNode;
import org.objectweb.asm.tree.InvokeDynamicInsnNode;
import org.objectweb.asm.tree.MethodInsnNode;
import org.objectweb.asm.tree.MethodNode;

/**
 * A recursion is one sampling decision. A method with copies asks {@code Entries.entry()} at every
 * invocation which code to run; a recursive method such as a quicksort (44,000 calls per sort of
 * 50,000 elements) paid that decision, a thread-state fetch and a countdown step, at every level,
 * about 2 % of the sort. When a method calls nothing but itself and the JDK, its calls to itself
 * stay in the code they are made from: the own code calls a plain copy of itself ({@link
 * MethodCopies#OWN_SUFFIX}), the copy with probes calls itself, the depth-only copy calls itself.
 *
 * <p>Each evaluation is still recorded with the configured rate: the whole recursion runs the copy
 * with probes exactly when its outermost invocation was chosen, with probability share, and there
 * evaluations are sampled at the rate over the share. Samples of one recursion come together, as
 * those of one long invocation always did.
 *
 * <p>Why only such methods: the own code runs outside units, and a call to the application (or to
 * the agent's API, or a wait loop's unit start) could open a unit before the method calls itself
 * again, whose frames must then count depth; a JDK call opens no unit that outlives it. A call to
 * itself that could run another method (a virtual call that a subclass may override) is left alone.
 */
final class SelfCalls {
  private SelfCalls() {}

  /**
   * Whether {@code method} of {@code owner} calls itself, with calls that cannot reach another
   * method, and otherwise only the JDK.
   */
  static boolean recursesAlone(String owner, int classAccess, MethodNode method) {
    boolean recurses = false;
    for (AbstractInsnNode insn : method.instructions) {
      if (insn instanceof InvokeDynamicInsnNode) {
        return false; // a lambda's body is a method of this class
      }
      if (insn instanceof MethodInsnNode call) {
        if (isSelfCall(owner, classAccess, method, call)) {
          recurses = true;
        } else if (!DepthCounting.jdk(call.owner)) {
          return false;
        }
      }
    }
    return recurses;
  }

  /**
   * Points {@code code}'s calls to {@code method} (of {@code owner}) at {@code target}, a private
   * method of the same class with the same descriptor.
   */
  static void retarget(
      String owner, int classAccess, MethodNode method, MethodNode code, String target) {
    for (AbstractInsnNode insn : code.instructions) {
      if (insn instanceof MethodInsnNode call && isSelfCall(owner, classAccess, method, call)) {
        call.name = target;
        if (call.getOpcode() != Opcodes.INVOKESTATIC) {
          call.setOpcode(Opcodes.INVOKESPECIAL); // a private method of the class, in any version
        }
      }
    }
  }

  private static boolean isSelfCall(
      String owner, int classAccess, MethodNode method, MethodInsnNode call) {
    if (!call.owner.equals(owner) || !call.name.equals(method.name) || call.itf) {
      return false;
    }
    if (!call.desc.equals(method.desc)) {
      return false;
    }
    if ((method.access & Opcodes.ACC_STATIC) != 0) {
      return call.getOpcode() == Opcodes.INVOKESTATIC;
    }
    boolean notOverridable =
        (method.access & (Opcodes.ACC_PRIVATE | Opcodes.ACC_FINAL)) != 0
            || (classAccess & Opcodes.ACC_FINAL) != 0;
    int op = call.getOpcode();
    return notOverridable && (op == Opcodes.INVOKEVIRTUAL || op == Opcodes.INVOKESPECIAL);
  }
}
