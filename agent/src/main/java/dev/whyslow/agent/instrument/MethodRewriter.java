package dev.whyslow.agent.instrument;

import dev.whyslow.agent.bootstrap.UnitEntries;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Set;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.tree.AbstractInsnNode;
import org.objectweb.asm.tree.FieldInsnNode;
import org.objectweb.asm.tree.FrameNode;
import org.objectweb.asm.tree.InsnList;
import org.objectweb.asm.tree.InsnNode;
import org.objectweb.asm.tree.IntInsnNode;
import org.objectweb.asm.tree.InvokeDynamicInsnNode;
import org.objectweb.asm.tree.LabelNode;
import org.objectweb.asm.tree.LdcInsnNode;
import org.objectweb.asm.tree.MethodInsnNode;
import org.objectweb.asm.tree.MethodNode;
import org.objectweb.asm.tree.VarInsnNode;

/**
 * Inserts the planned probes and the depth count into one method. Three new locals go after all
 * existing ones, so no existing local moves: the thread state, the countdown, copied from the
 * state's {@code countdown} at entry, and the frame's depth. Each probe passes copies of its
 * operands and the local countdown to the {@code CheckedProbes} method of its kind and keeps the
 * countdown it returns. The JIT inlines that method, so the unsampled path is a register decrement
 * and a branch, with no memory traffic; the branch is the callee's, whose profile every site
 * shares, so C2 never makes the sampled path an uncommon trap that the first sample at a site would
 * fall into ({@code CheckedProbes} says why that matters). Every existing frame gets the new locals
 * appended ({@link ProbeFrames}).
 *
 * <p>The field stays the truth across calls: the local is written back before every call, return
 * and {@code athrow}, and read again after every call and at every exception handler (between calls
 * that follow one another in straight-line code, the field stays the truth from the first to the
 * last: {@link CallChains}). Two small imprecisions follow, neither biased towards any predicate.
 * An exception thrown by an instruction other than a call (a null dereference, a division by zero)
 * reaches the handler with the decrements since the last write-back lost, so a few evaluations
 * later are sampled instead. And a rate change or the kill switch reaches a method already running
 * at its next sync point: after a call, whose instrumented callee resynchronised the field in
 * {@code Probes.state()}, or when its local runs out and the sampled path draws at the new rate;
 * until then it keeps its local countdown (one draw at the old rate). Killing still stops recording
 * at once: the sampled path checks the switch before it records.
 */
final class MethodRewriter {
  static final String PROBES = "dev/whyslow/agent/bootstrap/Probes";
  static final String CHECKED = "dev/whyslow/agent/bootstrap/CheckedProbes";
  static final String UNITS = "dev/whyslow/agent/bootstrap/Units";

  /** The entries that choose between a method's own code and its copies. */
  static final String ENTRIES = "dev/whyslow/agent/bootstrap/Entries";

  static final String UNIT_ENTRIES = "dev/whyslow/agent/bootstrap/UnitEntries";
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

  /** Inserts the probes and the depth count, with checked probes only (no fast path). */
  static void rewrite(
      MethodNode method, List<ProbePoint> points, int[] slots, ProbeFrames frames, int methodId) {
    rewrite(method, points, slots, frames, methodId, null);
  }

  /**
   * Inserts the probes and the depth count. A third new local keeps the frame's depth ({@code
   * Units.enter} returns it at entry): the thread's depth is set back to it at every handler and to
   * one less before every return and {@code athrow}, so an exception never leaves it wrong. A
   * method without probe points (only calls) gets the depth count alone. With a fast-path plan the
   * code is doubled: a fast copy whose probes are bare decrements runs each region whose weight the
   * countdown exceeds, the original with checked probes runs the rest ({@link FastPathPlan}).
   *
   * @param slots the counter slot of each point's site, in the same order as {@code points}
   * @param frames the frame before each point, every one of them {@link ProbeFrames#known}, and for
   *     a fast path the frames at its boundaries and after calls
   * @param methodId the method's dense id, passed to {@code Units.enter}; {@link #NO_DEPTH} for
   *     probes alone (units off), with no depth local
   * @param fastPath the regions for a fast path, or {@code null} for checked probes only
   * @return whether the method got a fast path
   */
  static boolean rewrite(
      MethodNode method,
      List<ProbePoint> points,
      int[] slots,
      ProbeFrames frames,
      int methodId,
      FastPathPlan fastPath) {
    InsnList insns = method.instructions;
    int state = method.maxLocals;
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
    CodeCopy slow = CodeCopy.original(method);
    CodeCopy fast = null;
    FastPathRoutes routes = FastPathRoutes.of(fastPath, frames, calls);
    CallChains chains = CallChains.of(method, calls, probed(points), routes);
    if (routes != null) {
      fast = CodeCopy.cloneOf(method); // after the frames got the new locals, before any probe
      routes.enter(slow, fast);
    }
    CopyRewriter rewriter =
        new CopyRewriter(
            method, points, slots, frames, state, counted, routes, calls, chains, exits);
    rewriter.rewrite(slow, fast);
    if (fast != null) {
      rewriter.rewrite(fast, slow);
      fast.appendTablesTo(method);
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
    prologue.add(new VarInsnNode(Opcodes.ISTORE, state + 1));
    // stack: (empty)
    if (counted) {
      prologue.add(new VarInsnNode(Opcodes.ALOAD, state));
      prologue.add(pushInt(methodId));
      prologue.add(
          new MethodInsnNode(
              Opcodes.INVOKESTATIC,
              UNIT_ENTRIES,
              UnitEntries.nameFor(methodId),
              "(L" + MethodPlanner.STATE + ";I)I",
              false));
      prologue.add(new VarInsnNode(Opcodes.ISTORE, state + 2));
      // stack: (empty)
    }
    if (fast != null) {
      // The method starts in the fast copy, whose entry check sends it to the original if need be.
      prologue.add(fast.list);
      insns.insert(prologue);
    } else {
      insns.insert(prologue);
    }
    method.maxLocals = counted ? state + 3 : state + 2;
    method.maxStack += rewriter.extraStack();
    return fast != null;
  }

  private static Set<AbstractInsnNode> probed(List<ProbePoint> points) {
    Set<AbstractInsnNode> probed = Collections.newSetFromMap(new IdentityHashMap<>());
    for (ProbePoint point : points) {
      probed.add(point.insn());
    }
    return probed;
  }

  /** {@code state.depth = d + delta}: this frame's depth (0) or its caller's (-1). */
  static InsnList setDepth(int state, int depth, int delta) {
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
  static InsnList writeBack(int state, int countdown) {
    InsnList list = new InsnList();
    list.add(new VarInsnNode(Opcodes.ALOAD, state));
    list.add(new VarInsnNode(Opcodes.ILOAD, countdown));
    list.add(new FieldInsnNode(Opcodes.PUTFIELD, MethodPlanner.STATE, COUNTDOWN, "I"));
    return list;
  }

  /**
   * {@code cd = state.countdown}: after a call, or at a handler, other code may have changed it.
   */
  static InsnList reload(int state, int countdown) {
    InsnList list = new InsnList();
    list.add(new VarInsnNode(Opcodes.ALOAD, state));
    list.add(new FieldInsnNode(Opcodes.GETFIELD, MethodPlanner.STATE, COUNTDOWN, "I"));
    list.add(new VarInsnNode(Opcodes.ISTORE, countdown));
    return list;
  }

  /** The first real instruction at or after {@code label}, past labels, line numbers and frames. */
  static AbstractInsnNode firstInstruction(LabelNode label) {
    AbstractInsnNode insn = label;
    while (insn.getOpcode() < 0) {
      insn = insn.getNext();
    }
    return insn;
  }

  /**
   * The frame's locals padded with TOP up to slot {@code state}, then the state, countdown and
   * depth.
   */
  static List<Object> withLocals(List<Object> locals, int state, boolean counted) {
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

  static AbstractInsnNode pushInt(int value) {
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
