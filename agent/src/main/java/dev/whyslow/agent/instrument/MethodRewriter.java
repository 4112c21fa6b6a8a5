package dev.whyslow.agent.instrument;

import java.util.ArrayList;
import java.util.List;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.tree.AbstractInsnNode;
import org.objectweb.asm.tree.FrameNode;
import org.objectweb.asm.tree.IincInsnNode;
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
    int extraStack = 0;
    for (int i = 0; i < points.size(); i++) {
      ProbePoint point = points.get(i);
      InsnList probe = new InsnList();
      operands(point, probe);
      // stack: ..., v, p   (v: the instruction's own operands, none for iinc; p: the probe's)
      probe.add(new VarInsnNode(Opcodes.ALOAD, state));
      // stack: ..., v, p, state
      probe.add(pushInt(slots[i]));
      // stack: ..., v, p, state, slot
      probe.add(
          new MethodInsnNode(
              Opcodes.INVOKESTATIC, PROBES, point.probe(), point.descriptor(), false));
      // stack: ..., v   (the jump, return, store or iinc that follows finds it as before)
      method.instructions.insertBefore(point.insn(), probe);
      extraStack = Math.max(extraStack, point.extraStack());
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
    method.maxStack += extraStack;
  }

  /** Pushes the values the probe compares, leaving the instruction's own operands in place. */
  private static void operands(ProbePoint point, InsnList probe) {
    boolean wide = point.twoSlots();
    if (point.insn() instanceof IincInsnNode iinc) {
      // stack: ...   (iinc takes nothing from the stack; the local still holds the old value)
      probe.add(new VarInsnNode(Opcodes.ILOAD, iinc.var));
      probe.add(pushInt(iinc.incr));
      probe.add(new InsnNode(Opcodes.IADD));
      // stack: ..., new   (old + increment, wrapping exactly as iinc does)
    } else {
      // stack: ..., v (one or two slots: a value, two ints/references, or a long/double)
      probe.add(new InsnNode(wide ? Opcodes.DUP2 : Opcodes.DUP));
      // stack: ..., v, v
    }
    if (point.partner() != ProbePoint.NO_PARTNER) {
      probe.add(new VarInsnNode(wide ? Opcodes.LLOAD : Opcodes.ILOAD, point.partner()));
      // stack: ..., [v,] new, other   (before the store the stored slot still holds the old value)
    }
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
