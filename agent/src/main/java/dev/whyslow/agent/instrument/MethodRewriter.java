package dev.whyslow.agent.instrument;

import java.util.ArrayList;
import java.util.List;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.tree.AbstractInsnNode;
import org.objectweb.asm.tree.FrameNode;
import org.objectweb.asm.tree.InsnList;
import org.objectweb.asm.tree.InsnNode;
import org.objectweb.asm.tree.IntInsnNode;
import org.objectweb.asm.tree.LdcInsnNode;
import org.objectweb.asm.tree.MethodInsnNode;
import org.objectweb.asm.tree.MethodNode;
import org.objectweb.asm.tree.VarInsnNode;

/**
 * Inserts the planned probes into one method. The thread state goes into a new local after all
 * existing ones, so no existing local moves; every (expanded) stack map frame gets that local
 * appended, and no instruction changes the control flow, so no frame needs recomputing.
 */
final class MethodRewriter {
  static final String PROBES = "dev/whyslow/agent/bootstrap/Probes";

  /** Most stack slots a probe call adds: a two-slot copy, the state and the slot constant. */
  static final int EXTRA_STACK = 4;

  private MethodRewriter() {}

  /** Whether every frame is expanded, as {@code ClassReader.EXPAND_FRAMES} gives them. */
  static boolean framesExpanded(MethodNode method) {
    for (AbstractInsnNode insn : method.instructions) {
      if (insn instanceof FrameNode frame && frame.type != Opcodes.F_NEW) {
        return false;
      }
    }
    return true;
  }

  /**
   * @param slots the counter slot of each point's site, in the same order as {@code points}
   */
  static void rewrite(MethodNode method, List<ProbePoint> points, int[] slots) {
    int state = method.maxLocals;
    for (int i = 0; i < points.size(); i++) {
      ProbePoint point = points.get(i);
      InsnList probe = new InsnList();
      // stack: ..., v (one or two slots: a value, two ints/references, or a long/double)
      probe.add(new InsnNode(point.twoSlots() ? Opcodes.DUP2 : Opcodes.DUP));
      // stack: ..., v, v
      probe.add(new VarInsnNode(Opcodes.ALOAD, state));
      // stack: ..., v, v, state
      probe.add(pushInt(slots[i]));
      // stack: ..., v, v, state, slot
      probe.add(
          new MethodInsnNode(
              Opcodes.INVOKESTATIC, PROBES, point.probe(), point.descriptor(), false));
      // stack: ..., v   (the jump or return that follows consumes it as before)
      method.instructions.insertBefore(point.insn(), probe);
    }
    for (AbstractInsnNode insn : method.instructions) {
      if (insn instanceof FrameNode frame) {
        frame.local = withState(frame.local, state);
      }
    }
    InsnList prologue = new InsnList();
    // stack: (empty, method entry)
    prologue.add(
        new MethodInsnNode(
            Opcodes.INVOKESTATIC, PROBES, "state", "()L" + MethodPlanner.STATE + ";", false));
    // stack: state
    prologue.add(new VarInsnNode(Opcodes.ASTORE, state));
    // stack: (empty)
    method.instructions.insert(prologue);
    method.maxLocals = state + 1;
    method.maxStack += EXTRA_STACK;
  }

  /** The frame's locals padded with TOP up to slot {@code state}, then the thread state type. */
  private static List<Object> withState(List<Object> locals, int state) {
    List<Object> out = new ArrayList<>(state + 1);
    int slots = 0;
    if (locals != null) {
      for (Object local : locals) {
        out.add(local);
        // In expanded frames a long or double is one element but takes two local slots.
        slots += (Opcodes.LONG.equals(local) || Opcodes.DOUBLE.equals(local)) ? 2 : 1;
      }
    }
    while (slots < state) {
      out.add(Opcodes.TOP);
      slots++;
    }
    out.add(MethodPlanner.STATE);
    return out;
  }

  private static AbstractInsnNode pushInt(int value) {
    if (value >= -1 && value <= 5) {
      return new InsnNode(Opcodes.ICONST_0 + value);
    }
    if (value >= Byte.MIN_VALUE && value <= Byte.MAX_VALUE) {
      return new IntInsnNode(Opcodes.BIPUSH, value);
    }
    if (value >= Short.MIN_VALUE && value <= Short.MAX_VALUE) {
      return new IntInsnNode(Opcodes.SIPUSH, value);
    }
    return new LdcInsnNode(value);
  }
}
