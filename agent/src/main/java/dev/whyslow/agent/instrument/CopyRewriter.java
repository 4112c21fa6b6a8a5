package dev.whyslow.agent.instrument;

import static dev.whyslow.agent.instrument.MethodRewriter.firstInstruction;
import static dev.whyslow.agent.instrument.MethodRewriter.reload;
import static dev.whyslow.agent.instrument.MethodRewriter.setDepth;
import static dev.whyslow.agent.instrument.MethodRewriter.withLocals;
import static dev.whyslow.agent.instrument.MethodRewriter.writeBack;

import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Set;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.tree.AbstractInsnNode;
import org.objectweb.asm.tree.FrameNode;
import org.objectweb.asm.tree.IincInsnNode;
import org.objectweb.asm.tree.InsnList;
import org.objectweb.asm.tree.InsnNode;
import org.objectweb.asm.tree.JumpInsnNode;
import org.objectweb.asm.tree.LabelNode;
import org.objectweb.asm.tree.MethodInsnNode;
import org.objectweb.asm.tree.MethodNode;
import org.objectweb.asm.tree.TryCatchBlockNode;
import org.objectweb.asm.tree.VarInsnNode;

/**
 * Inserts probes, countdown synchronisation, the depth count and the fast-path checks into one copy
 * of a method's code ({@link MethodRewriter}). In the slow copy (the original) every probe checks
 * its countdown; in the fast copy a probe is a bare decrement, except where {@link FastPathRoutes}
 * says it must keep its check. At each crossing, a check sends control to the other copy when the
 * countdown is on the other side of the region's weight.
 */
final class CopyRewriter {
  private final List<ProbePoint> points;
  private final int[] slots;
  private final ProbeFrames frames;
  private final int state;
  private final int countdown;
  private final int depth;
  private final boolean counted;
  private final FastPathRoutes routes;
  private final List<AbstractInsnNode> calls;
  private final CallChains chains;
  private final List<AbstractInsnNode> exits;

  /** The first instruction of each handler, in the original, found before anything is inserted. */
  private final List<AbstractInsnNode> handlerStarts = new ArrayList<>();

  /** The method's first instruction, and whether a declared frame comes before it. */
  private final AbstractInsnNode start;

  private final boolean framedStart;

  private int extraStack = 3; // the depth restore: state, depth and 1 above whatever an exit had

  CopyRewriter(
      MethodNode method,
      List<ProbePoint> points,
      int[] slots,
      ProbeFrames frames,
      int state,
      boolean counted,
      FastPathRoutes routes,
      List<AbstractInsnNode> calls,
      CallChains chains,
      List<AbstractInsnNode> exits) {
    this.points = points;
    this.slots = slots;
    this.frames = frames;
    this.state = state;
    this.countdown = state + 1;
    this.depth = state + 2;
    this.counted = counted;
    this.routes = routes;
    this.calls = calls;
    this.chains = chains;
    this.exits = exits;
    AbstractInsnNode real = method.instructions.getFirst();
    boolean framed = false;
    while (real.getOpcode() < 0) {
      framed |= real instanceof FrameNode;
      real = real.getNext();
    }
    this.start = real;
    this.framedStart = framed;
    Set<AbstractInsnNode> seen = Collections.newSetFromMap(new IdentityHashMap<>());
    for (TryCatchBlockNode tcb : method.tryCatchBlocks) {
      AbstractInsnNode first = firstInstruction(tcb.handler);
      if (seen.add(first)) {
        handlerStarts.add(first);
      }
    }
  }

  /** Stack slots the inserted code needs above what the method had. */
  int extraStack() {
    return extraStack;
  }

  /**
   * Rewrites {@code copy}; {@code other} is the copy its checks jump to, unused without a fast
   * path.
   */
  void rewrite(CodeCopy copy, CodeCopy other) {
    boolean probes = !points.isEmpty();
    InsnList list = copy.list;
    InsnList trampolines = new InsnList();
    // Handlers first, so a handler whose first instruction has a probe reloads before it.
    for (AbstractInsnNode first : handlerStarts) {
      InsnList code = new InsnList();
      if (probes) {
        code.add(reload(state, countdown));
      }
      if (counted) {
        code.add(setDepth(state, depth, 0));
      }
      if (routes != null && routes.atBoundary(first) != null) {
        boolean framed = !probes && !counted && frameBefore(copy.at(first));
        code.add(check(copy, other, first, routes.atBoundary(first), framed, false));
      }
      list.insertBefore(copy.at(first), code);
    }
    if (routes != null) {
      for (var boundary : routes.boundaries().entrySet()) {
        if (!handlerStarts.contains(boundary.getKey())) {
          AbstractInsnNode at = copy.at(boundary.getKey());
          list.insertBefore(
              at,
              check(copy, other, boundary.getKey(), boundary.getValue(), frameBefore(at), false));
        }
      }
    }
    for (int i = 0; i < points.size(); i++) {
      ProbePoint point = points.get(i);
      AbstractInsnNode at = copy.at(point.insn());
      PureLoops.PureLoop pure = routes == null ? null : routes.pureLoop(point.insn());
      if (pure != null) {
        list.insertBefore(at, new IincInsnNode(countdown, -1));
        settleAtExit(copy, (JumpInsnNode) at, point, slots[i], pure.exitPredicate(), trampolines);
        extraStack = Math.max(extraStack, 4); // state, countdown, slot, predicate
      } else if (copy.fast && !routes.checkedInFast(point.insn())) {
        list.insertBefore(at, new IincInsnNode(countdown, -1));
      } else {
        list.insertBefore(at, probe(point, slots[i]));
        extraStack = Math.max(extraStack, point.extraStack());
      }
    }
    if (probes) {
      for (AbstractInsnNode call : calls) {
        AbstractInsnNode at = copy.at(call);
        if (chains.writesBackBefore(call)) {
          list.insertBefore(at, writeBack(state, countdown));
        }
        if (!chains.reloadsAfter(call)) {
          continue; // the next call follows in line (CallChains), and no check comes between
        }
        InsnList after = reload(state, countdown);
        if (routes != null && routes.afterCall(call) != null) {
          after.add(check(copy, other, call, routes.afterCall(call), false, true));
          if (!copy.fast && frameFollows(at)) {
            after.add(new InsnNode(Opcodes.NOP)); // two frames may not share an offset
          }
        }
        list.insert(at, after);
      }
    }
    list.add(trampolines); // after the copy's last instruction, which never falls through
    if (routes != null && !copy.fast && !framedStart) {
      // The slow copy follows the fast one, which never falls through: its start needs a frame.
      InsnList head = new InsnList();
      head.add(new LabelNode());
      head.add(frame(routes.atBoundary(start).frame(), copy));
      list.insert(head);
    }
    for (AbstractInsnNode exit : exits) {
      AbstractInsnNode at = copy.at(exit);
      if (probes) {
        list.insertBefore(at, writeBack(state, countdown)); // after a return's probe
      }
      if (counted) {
        list.insertBefore(at, setDepth(state, depth, -1));
      }
    }
  }

  /**
   * A crossing. The one check lives in the fast copy, {@code if (cd <= weight) goto slow}, behind
   * the fast copy's entry label; the slow copy jumps back to that check instead of checking for
   * itself, so no jump lands in the middle of the other copy's loop. That is not enough to keep
   * loops reducible: the slow copy's {@code goto} sits where the loop header was, and both the slow
   * copy's entry into the loop and its back edge pass through it, a second way into the loop. C2
   * leaves such loop nests unoptimised; threading those jumps past the {@code goto} fixed that but
   * measured worse overall, see bench/README.md ("C2's view of the fast path"). A crossing whose
   * region can evaluate one probe at most has no check ({@link
   * FastPathRoutes#MIN_WEIGHT_AT_BOUNDARY}): the fast copy never leaves there, so the slow copy's
   * jump back is the only way in and the loop stays reducible.
   *
   * @param framed whether a declared frame already describes the position (nothing but labels and
   *     line numbers between it and the crossing), so the check's label needs none of its own
   */
  private InsnList check(
      CodeCopy copy,
      CodeCopy other,
      AbstractInsnNode key,
      FastPathRoutes.Crossing crossing,
      boolean framed,
      boolean afterCall) {
    InsnList check = new InsnList();
    if (copy.fast) {
      check.add(copy.entry(key, afterCall));
      if (!framed) {
        check.add(frame(crossing.frame(), copy));
      }
      // stack: ...   (whatever the frame at the crossing holds)
      if (crossing.checked()) {
        check.add(new VarInsnNode(Opcodes.ILOAD, countdown));
        check.add(MethodRewriter.pushInt(crossing.weight()));
        // stack: ..., cd, weight
        check.add(new JumpInsnNode(Opcodes.IF_ICMPLE, other.entry(key, afterCall)));
        // stack: ...
      }
    } else {
      check.add(new JumpInsnNode(Opcodes.GOTO, other.entry(key, afterCall)));
      check.add(copy.entry(key, afterCall));
      check.add(frame(crossing.frame(), copy));
    }
    return check;
  }

  /** Whether a declared frame comes before {@code insn} with no real instruction between. */
  private static boolean frameBefore(AbstractInsnNode insn) {
    for (AbstractInsnNode prev = insn.getPrevious(); prev != null; prev = prev.getPrevious()) {
      if (prev instanceof FrameNode) {
        return true;
      }
      if (prev.getOpcode() >= 0) {
        return false;
      }
    }
    return false;
  }

  /**
   * Settles a pure loop's samples where its branch leaves it ({@link PureLoops}): right after the
   * branch when falling through leaves, else in a trampoline the branch now jumps to, which then
   * goes on to the old target. {@code cd = CheckedProbes.loopExit(state, cd, slot, exitPredicate)},
   * which records only when the countdown ran out inside the loop.
   */
  private void settleAtExit(
      CodeCopy copy,
      JumpInsnNode branch,
      ProbePoint point,
      int slot,
      int exitPredicate,
      InsnList trampolines) {
    InsnList settle = new InsnList();
    // stack: ...   (what the loop's exit has; the branch took its operands)
    settle.add(new VarInsnNode(Opcodes.ALOAD, state));
    settle.add(new VarInsnNode(Opcodes.ILOAD, countdown));
    settle.add(MethodRewriter.pushInt(slot));
    settle.add(MethodRewriter.pushInt(exitPredicate));
    // stack: ..., state, cd, slot, exit predicate
    settle.add(
        new MethodInsnNode(
            Opcodes.INVOKESTATIC,
            MethodRewriter.CHECKED,
            "loopExit",
            "(L" + MethodPlanner.STATE + ";III)I",
            false));
    settle.add(new VarInsnNode(Opcodes.ISTORE, countdown));
    // stack: ...
    if (exitPredicate == 0) {
      ProbeFrames.Frame before = frames.before(point.insn());
      int operands =
          branch.getOpcode() >= Opcodes.IF_ICMPEQ && branch.getOpcode() <= Opcodes.IF_ACMPNE
              ? 2
              : 1;
      List<Object> stack = before.stack().subList(0, before.stack().size() - operands);
      LabelNode trampoline = new LabelNode();
      trampolines.add(trampoline);
      trampolines.add(frame(new ProbeFrames.Frame(before.locals(), stack), copy));
      trampolines.add(settle);
      trampolines.add(new JumpInsnNode(Opcodes.GOTO, branch.label));
      branch.label = trampoline;
    } else {
      copy.list.insert(branch, settle);
    }
  }

  /** Whether a declared frame comes after {@code insn} before the next real instruction. */
  private static boolean frameFollows(AbstractInsnNode insn) {
    for (AbstractInsnNode next = insn.getNext(); next != null; next = next.getNext()) {
      if (next instanceof FrameNode) {
        return true;
      }
      if (next.getOpcode() >= 0) {
        return false;
      }
    }
    return false;
  }

  /** A frame node for {@code frame} in {@code copy}, with the state, countdown and depth locals. */
  private FrameNode frame(ProbeFrames.Frame frame, CodeCopy copy) {
    List<Object> locals = withLocals(copy.types(frame.locals()), state, counted);
    List<Object> stack = copy.types(frame.stack());
    return new FrameNode(
        Opcodes.F_NEW, locals.size(), locals.toArray(), stack.size(), stack.toArray());
  }

  /**
   * The probe for one point: copies of its operands, the state, the site's slot and the countdown
   * go to the {@code CheckedProbes} method of its kind, which returns the countdown to keep. The
   * instruction's own operands stay where they were.
   */
  private InsnList probe(ProbePoint point, int slot) {
    InsnList probe = new InsnList();
    // stack: ..., v   (v: the instruction's own operands, none for iinc)
    operands(point, probe);
    // stack: ..., v, p   (p: the probe's copies)
    probe.add(new VarInsnNode(Opcodes.ALOAD, state));
    probe.add(MethodRewriter.pushInt(slot));
    probe.add(new VarInsnNode(Opcodes.ILOAD, countdown));
    // stack: ..., v, p, state, slot, cd
    probe.add(
        new MethodInsnNode(
            Opcodes.INVOKESTATIC,
            MethodRewriter.CHECKED,
            point.probe(),
            point.checkedDescriptor(),
            false));
    // stack: ..., v, next countdown
    probe.add(new VarInsnNode(Opcodes.ISTORE, countdown));
    // stack: ..., v   (the jump, return, store or iinc that follows finds it as before)
    return probe;
  }

  /** Pushes the values the probe compares, leaving the instruction's own operands in place. */
  private static void operands(ProbePoint point, InsnList probe) {
    boolean wide = point.twoSlots();
    if (point.insn() instanceof IincInsnNode iinc) {
      // stack: ...   (iinc takes nothing from the stack; the local still holds the old value)
      probe.add(new VarInsnNode(Opcodes.ILOAD, iinc.var));
      probe.add(MethodRewriter.pushInt(iinc.incr));
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
}
