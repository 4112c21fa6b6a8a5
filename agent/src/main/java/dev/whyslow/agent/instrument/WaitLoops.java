package dev.whyslow.agent.instrument;

import java.util.ArrayList;
import java.util.List;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.tree.AbstractInsnNode;
import org.objectweb.asm.tree.InsnList;
import org.objectweb.asm.tree.LdcInsnNode;
import org.objectweb.asm.tree.MethodInsnNode;
import org.objectweb.asm.tree.MethodNode;

/**
 * Event loops in application code: a call that waits for work ({@code BlockingQueue.take} and timed
 * {@code poll}, {@code Selector.select}, {@code accept}, {@code Object.wait}, {@code
 * LockSupport.park*}) inside a loop of the method's control-flow graph. The unit ends before the
 * call and the next one starts when it returns, so waiting is never part of a unit; the last one
 * ends when the method returns. Socket reads are not matched: from the bytecode alone an {@code
 * InputStream.read} on a socket cannot be told from a file read.
 */
final class WaitLoops {
  private WaitLoops() {}

  /** Whether {@code call} waits for work, by owner, name and descriptor only. */
  static boolean isWait(MethodInsnNode call) {
    String name = call.name;
    String desc = call.desc;
    switch (name) {
      case "take":
        return desc.equals("()Ljava/lang/Object;");
      case "poll":
        return desc.equals("(JLjava/util/concurrent/TimeUnit;)Ljava/lang/Object;");
      case "select":
        return call.owner.endsWith("Selector");
      case "accept":
        return desc.equals("()Ljava/net/Socket;")
            || desc.equals("()Ljava/nio/channels/SocketChannel;");
      case "wait":
        return desc.equals("()V") || desc.equals("(J)V") || desc.equals("(JI)V");
      default:
        return name.startsWith("park")
            && call.owner.equals("java/util/concurrent/locks/LockSupport");
    }
  }

  /** Wraps the wait calls inside loops of {@code method}; whether there were any. */
  static boolean wrap(String className, MethodNode method) {
    InsnList insns = method.instructions;
    List<MethodInsnNode> waits = new ArrayList<>();
    LoopAnalysis loops = null;
    for (int i = 0; i < insns.size(); i++) {
      if (!(insns.get(i) instanceof MethodInsnNode call) || !isWait(call)) {
        continue;
      }
      if (loops == null) {
        try {
          loops = LoopAnalysis.of(method);
        } catch (RuntimeException e) {
          return false; // cannot analyse (subroutines): leave it as it is
        }
      }
      if (loops.loopIdOf(i) >= 0) {
        waits.add(call);
      }
    }
    if (waits.isEmpty()) {
      return false;
    }
    String loopName = className + "." + method.name;
    for (MethodInsnNode call : waits) {
      // stack: ..., args   (ours take nothing and leave nothing)
      insns.insertBefore(call, UnitWrapper.call("beforeWait", "()V"));
      InsnList after = new InsnList();
      // stack: ..., result (if any)
      after.add(new LdcInsnNode(loopName));
      after.add(UnitWrapper.call("afterWait", "(Ljava/lang/String;)V"));
      insns.insert(call, after);
    }
    for (AbstractInsnNode insn : insns.toArray()) {
      int op = insn.getOpcode();
      if (op >= Opcodes.IRETURN && op <= Opcodes.RETURN) {
        insns.insertBefore(insn, UnitWrapper.call("loopExit", "()V"));
      }
    }
    method.maxStack += 1;
    return true;
  }
}
