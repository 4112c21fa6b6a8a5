package dev.whyslow.agent.instrument;

import java.util.ArrayList;
import java.util.List;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.tree.AbstractInsnNode;
import org.objectweb.asm.tree.FieldInsnNode;
import org.objectweb.asm.tree.FrameNode;
import org.objectweb.asm.tree.IincInsnNode;
import org.objectweb.asm.tree.InsnList;
import org.objectweb.asm.tree.InsnNode;
import org.objectweb.asm.tree.IntInsnNode;
import org.objectweb.asm.tree.InvokeDynamicInsnNode;
import org.objectweb.asm.tree.JumpInsnNode;
import org.objectweb.asm.tree.LabelNode;
import org.objectweb.asm.tree.LdcInsnNode;
import org.objectweb.asm.tree.MethodInsnNode;
import org.objectweb.asm.tree.MethodNode;
import org.objectweb.asm.tree.TryCatchBlockNode;
import org.objectweb.asm.tree.VarInsnNode;

/**
 * Inserts the planned probes and the depth count into one method. Three new locals go after all
 * existing ones, so no existing local moves: the thread state, the countdown, copied from the
 * state's {@code countdown} at entry, and the frame's depth. Each probe decrements the local and,
 * only when it reaches zero, copies the operands and calls the sampled path in {@code
 * SampledProbes}, which returns the next countdown; so the unsampled path is a register decrement
 * and a branch, with no memory traffic and nothing on the stack for C2 to keep alive. Every
 * existing frame gets the two locals appended and each probe adds one frame where its sampled path
 * rejoins ({@link ProbeFrames}).
 *
 * <p>The field stays the truth across calls: the local is written back before every call, return
 * and {@code athrow}, and read again after every call and at every exception handler. Two small
 * imprecisions follow, neither biased towards any predicate. An exception thrown by an instruction
 * other than a call (a null dereference, a division by zero) reaches the handler with the
 * decrements since the last write-back lost, so a few evaluations later are sampled instead. And a
 * rate change or the kill switch reaches a method already running at its next sync point: after a
 * call, whose instrumented callee resynchronised the field in {@code Probes.state()}, or when its
 * local runs out and the sampled path draws at the new rate; until then it keeps its local
 * countdown (one draw at the old rate). Killing still stops recording at once: the sampled path
 * checks the switch before it records.
 */
final class MethodRewriter {
  static final String PROBES = "dev/whyslow/agent/bootstrap/Probes";
  static final String SAMPLED = "dev/whyslow/agent/bootstrap/SampledProbes";
  static final String UNITS = "dev/whyslow/agent/bootstrap/Units";
  private static final String DEPTH = "depth";

  /** A method id that means: no depth count (units are off). */
  static final int NO_DEPTH = -1;

  private static final String COUNTDOWN = "countdown";

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
   * Inserts the probes and the depth count. A third new local keeps the frame's depth ({@code
   * Units.enter} returns it at entry): the thread's depth is set back to it at every handler and to
   * one less before every return and {@code athrow}, so an exception never leaves it wrong. A
   * method without probe points (only calls) gets the depth count alone.
   *
   * @param slots the counter slot of each point's site, in the same order as {@code points}
   * @param frames the frame before each point, every one of them {@link ProbeFrames#known}
   * @param methodId the method's dense id, passed to {@code Units.enter}; {@link #NO_DEPTH} for
   *     probes alone (units off), with no depth local
   */
  static void rewrite(
      MethodNode method, List<ProbePoint> points, int[] slots, ProbeFrames frames, int methodId) {
    InsnList insns = method.instructions;
    boolean probes = !points.isEmpty();
    int state = method.maxLocals;
    int countdown = state + 1;
    int depth = state + 2;
    boolean counted = methodId != NO_DEPTH;
    List<AbstractInsnNode> calls = new ArrayList<>();
    List<AbstractInsnNode> exits = new ArrayList<>();
    for (AbstractInsnNode insn : insns) {
      int op = insn.getOpcode();
      if (insn instanceof MethodInsnNode || insn instanceof InvokeDynamicInsnNode) {
        calls.add(insn);
      } else if ((op >= Opcodes.IRETURN && op <= Opcodes.RETURN) || op == Opcodes.ATHROW) {
        exits.add(insn);
      } else if (insn instanceof FrameNode frame) {
        frame.local = withLocals(frame.local, state, counted);
      }
    }
    // Handlers first, so a handler whose first instruction has a probe reloads before it.
    for (TryCatchBlockNode tcb : method.tryCatchBlocks) {
      AbstractInsnNode first = firstInstruction(tcb.handler);
      if (probes) {
        insns.insertBefore(first, reload(state, countdown));
      }
      if (counted) {
        insns.insertBefore(first, setDepth(state, depth, 0));
      }
    }
    int extraStack = 3; // the depth restore: state, depth and 1 above whatever an exit had
    for (int i = 0; i < points.size(); i++) {
      ProbePoint point = points.get(i);
      insns.insertBefore(
          point.insn(),
          probe(point, slots[i], frames.before(point.insn()), state, countdown, counted));
      extraStack = Math.max(extraStack, point.extraStack());
    }
    if (probes) {
      for (AbstractInsnNode call : calls) {
        insns.insertBefore(call, writeBack(state, countdown));
        insns.insert(call, reload(state, countdown));
      }
    }
    for (AbstractInsnNode exit : exits) {
      if (probes) {
        insns.insertBefore(exit, writeBack(state, countdown)); // after a return's probe
      }
      if (counted) {
        insns.insertBefore(exit, setDepth(state, depth, -1));
      }
    }
    InsnList prologue = new InsnList();
    // stack: (empty, method entry)
    prologue.add(
        new MethodInsnNode(
            Opcodes.INVOKESTATIC, PROBES, "state", "()L" + MethodPlanner.STATE + ";", false));
    prologue.add(new InsnNode(Opcodes.DUP));
    prologue.add(new VarInsnNode(Opcodes.ASTORE, state));
    // stack: state
    prologue.add(new FieldInsnNode(Opcodes.GETFIELD, MethodPlanner.STATE, COUNTDOWN, "I"));
    prologue.add(new VarInsnNode(Opcodes.ISTORE, countdown));
    // stack: (empty)
    if (counted) {
      prologue.add(new VarInsnNode(Opcodes.ALOAD, state));
      prologue.add(pushInt(methodId));
      prologue.add(
          new MethodInsnNode(
              Opcodes.INVOKESTATIC, UNITS, "enter", "(L" + MethodPlanner.STATE + ";I)I", false));
      prologue.add(new VarInsnNode(Opcodes.ISTORE, depth));
      // stack: (empty)
    }
    insns.insert(prologue);
    method.maxLocals = counted ? depth + 1 : countdown + 1;
    method.maxStack += extraStack;
  }

  /**
   * The probe for one point: {@code iinc cd -1; iload cd; ifgt skip}, then the sampled path, then
   * at {@code skip} the frame from before the probe with the two new locals.
   */
  private static InsnList probe(
      ProbePoint point,
      int slot,
      ProbeFrames.Frame before,
      int state,
      int countdown,
      boolean counted) {
    InsnList probe = new InsnList();
    LabelNode skip = new LabelNode();
    // stack: ..., v   (v: the instruction's own operands, none for iinc)
    probe.add(new IincInsnNode(countdown, -1));
    probe.add(new VarInsnNode(Opcodes.ILOAD, countdown));
    probe.add(new JumpInsnNode(Opcodes.IFGT, skip));
    // stack: ..., v   (the sampled path, once in 1/rate evaluations)
    operands(point, probe);
    // stack: ..., v, p   (p: the probe's copies)
    probe.add(new VarInsnNode(Opcodes.ALOAD, state));
    probe.add(pushInt(slot));
    // stack: ..., v, p, state, slot
    probe.add(
        new MethodInsnNode(
            Opcodes.INVOKESTATIC, SAMPLED, point.probe(), point.descriptor(), false));
    // stack: ..., v, next countdown
    probe.add(new VarInsnNode(Opcodes.ISTORE, countdown));
    // stack: ..., v   (the jump, return, store or iinc that follows finds it as before)
    probe.add(skip);
    if (before != null) {
      List<Object> locals = withLocals(before.locals(), state, counted);
      List<Object> stack = before.stack();
      probe.add(
          new FrameNode(
              Opcodes.F_NEW, locals.size(), locals.toArray(), stack.size(), stack.toArray()));
    }
    return probe;
  }

  /** {@code state.depth = d + delta}: this frame's depth (0) or its caller's (-1). */
  private static InsnList setDepth(int state, int depth, int delta) {
    InsnList list = new InsnList();
    // stack: ...
    list.add(new VarInsnNode(Opcodes.ALOAD, state));
    list.add(new VarInsnNode(Opcodes.ILOAD, depth));
    if (delta != 0) {
      list.add(pushInt(-delta));
      list.add(new InsnNode(Opcodes.ISUB));
    }
    // stack: ..., state, d + delta
    list.add(new FieldInsnNode(Opcodes.PUTFIELD, MethodPlanner.STATE, DEPTH, "I"));
    return list;
  }

  /** {@code state.countdown = cd}: the field is the truth while other code runs. */
  private static InsnList writeBack(int state, int countdown) {
    InsnList list = new InsnList();
    list.add(new VarInsnNode(Opcodes.ALOAD, state));
    list.add(new VarInsnNode(Opcodes.ILOAD, countdown));
    list.add(new FieldInsnNode(Opcodes.PUTFIELD, MethodPlanner.STATE, COUNTDOWN, "I"));
    return list;
  }

  /**
   * {@code cd = state.countdown}: after a call, or at a handler, other code may have changed it.
   */
  private static InsnList reload(int state, int countdown) {
    InsnList list = new InsnList();
    list.add(new VarInsnNode(Opcodes.ALOAD, state));
    list.add(new FieldInsnNode(Opcodes.GETFIELD, MethodPlanner.STATE, COUNTDOWN, "I"));
    list.add(new VarInsnNode(Opcodes.ISTORE, countdown));
    return list;
  }

  /** The first real instruction at or after {@code label}, past labels, line numbers and frames. */
  private static AbstractInsnNode firstInstruction(LabelNode label) {
    AbstractInsnNode insn = label;
    while (insn.getOpcode() < 0) {
      insn = insn.getNext();
    }
    return insn;
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

  /**
   * The frame's locals padded with TOP up to slot {@code state}, then the state, countdown and
   * depth.
   */
  private static List<Object> withLocals(List<Object> locals, int state, boolean counted) {
    List<Object> out = new ArrayList<>(state + 3);
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
    out.add(Opcodes.INTEGER);
    if (counted) {
      out.add(Opcodes.INTEGER);
    }
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
