package dev.whyslow.agent.instrument;

import java.util.function.Predicate;
import org.objectweb.asm.Handle;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.Type;
import org.objectweb.asm.tree.AbstractInsnNode;
import org.objectweb.asm.tree.ClassNode;
import org.objectweb.asm.tree.InvokeDynamicInsnNode;
import org.objectweb.asm.tree.MethodInsnNode;
import org.objectweb.asm.tree.MethodNode;

/**
 * Makes a copy's calls of classes in scope go to their callees' copies, once units are chosen whole
 * ({@link UnitChoice}): each becomes an {@code invokedynamic} linked by {@code WorldCalls}, which
 * finds the callee's copy or, for anything it cannot prove the same, the plain call. The stack
 * before and after each call is as it was, so the frames stand. Constructors, super calls and calls
 * of classes out of scope (which have no copies) stay as they are.
 */
final class CopyCalls {
  private static final String WORLD_CALLS = "dev/whyslow/agent/bootstrap/WorldCalls";

  private static final Handle LINK =
      new Handle(
          Opcodes.H_INVOKESTATIC,
          WORLD_CALLS,
          "link",
          "(Ljava/lang/invoke/MethodHandles$Lookup;Ljava/lang/String;Ljava/lang/invoke/MethodType;"
              + "ILjava/lang/Class;)Ljava/lang/invoke/CallSite;",
          false);

  // The kinds of WorldCalls, which the instrumenter cannot name (the bootstrap is not its class).
  private static final int STATIC = 0;
  private static final int SPECIAL = 1;
  private static final int VIRTUAL = 2;

  private CopyCalls() {}

  /**
   * Rewrites the calls of {@code copy}, a method of {@code owner}; {@code inScope} tells which
   * classes (internal names) are instrumented. Class files before Java 7 have no {@code
   * invokedynamic} and are left alone.
   *
   * @return how many calls now go through {@code WorldCalls}
   */
  static int rewrite(ClassNode owner, MethodNode copy, Predicate<String> inScope) {
    if ((owner.version & 0xFFFF) < Opcodes.V1_7) {
      return 0;
    }
    int rewritten = 0;
    for (AbstractInsnNode insn = copy.instructions.getFirst(); insn != null; ) {
      AbstractInsnNode next = insn.getNext();
      if (insn instanceof MethodInsnNode call) {
        int kind = kindOf(owner, call, inScope);
        if (kind >= 0) {
          copy.instructions.set(call, linked(call, kind));
          rewritten++;
        }
      }
      insn = next;
    }
    return rewritten;
  }

  private static int kindOf(ClassNode owner, MethodInsnNode call, Predicate<String> inScope) {
    if (call.owner.startsWith("[")
        || call.name.startsWith("<")
        || call.owner.startsWith("java/lang/")
        || !inScope.test(call.owner)) {
      return -1;
    }
    switch (call.getOpcode()) {
      case Opcodes.INVOKESTATIC:
        return call.itf ? -1 : STATIC; // an interface has no copies
      case Opcodes.INVOKEVIRTUAL:
      case Opcodes.INVOKEINTERFACE:
        return VIRTUAL;
      case Opcodes.INVOKESPECIAL:
        // A private method of the class itself; a super call must stay one.
        return !call.itf && call.owner.equals(owner.name) && isPrivate(owner, call) ? SPECIAL : -1;
      default:
        return -1;
    }
  }

  private static boolean isPrivate(ClassNode owner, MethodInsnNode call) {
    for (MethodNode m : owner.methods) {
      if (m.name.equals(call.name) && m.desc.equals(call.desc)) {
        return (m.access & Opcodes.ACC_PRIVATE) != 0;
      }
    }
    return false;
  }

  private static InvokeDynamicInsnNode linked(MethodInsnNode call, int kind) {
    String desc =
        kind == STATIC ? call.desc : "(" + Type.getObjectType(call.owner) + call.desc.substring(1);
    // stack: [receiver,] args... (as the call had it)
    return new InvokeDynamicInsnNode(call.name, desc, LINK, kind, Type.getObjectType(call.owner));
  }
}
