package dev.whyslow.agent.instrument;

import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Set;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.tree.AbstractInsnNode;
import org.objectweb.asm.tree.FrameNode;
import org.objectweb.asm.tree.InvokeDynamicInsnNode;
import org.objectweb.asm.tree.JumpInsnNode;
import org.objectweb.asm.tree.LabelNode;
import org.objectweb.asm.tree.LookupSwitchInsnNode;
import org.objectweb.asm.tree.MethodInsnNode;
import org.objectweb.asm.tree.MethodNode;
import org.objectweb.asm.tree.TableSwitchInsnNode;
import org.objectweb.asm.tree.TryCatchBlockNode;

/**
 * Calls that follow one another in straight-line code, as a builder chain does ({@code
 * json.element().field("id", id).end()}). Between two such calls nothing reads the method's local
 * countdown, so the field can stay the truth from the first call to the last: the reload after each
 * call but the last and the write-back before each call but the first are left out ({@link
 * CopyRewriter}). That is up to fourteen bytes of bytecode and a load and a store less per call in
 * the chain.
 *
 * <p>A chain ends wherever the local is needed or control can arrive from elsewhere: at a probe, a
 * fast-path check (at a boundary or after a call), a jump, switch, return or throw, and at a label
 * that something jumps to or that bounds a try block. An exception thrown between two calls of a
 * chain reaches a handler that reloads the countdown from the field, which is current there.
 */
final class CallChains {
  /** No chains at all: every call synchronises on both sides. */
  static final CallChains NONE = new CallChains();

  private final Set<AbstractInsnNode> noReloadAfter = identitySet();
  private final Set<AbstractInsnNode> noWriteBackBefore = identitySet();

  private CallChains() {}

  /**
   * The chains among {@code calls}.
   *
   * @param probed the instructions that carry a probe
   * @param routes the fast path's crossings, or {@code null} without a fast path
   */
  static CallChains of(
      MethodNode method,
      List<AbstractInsnNode> calls,
      Set<AbstractInsnNode> probed,
      FastPathRoutes routes) {
    if (calls.size() < 2) {
      return NONE;
    }
    Set<LabelNode> merges = mergeLabels(method);
    CallChains chains = new CallChains();
    for (AbstractInsnNode call : calls) {
      if (routes != null && routes.afterCall(call) != null) {
        continue; // a check reads the local right after the call
      }
      AbstractInsnNode next = nextCallInLine(call, probed, routes, merges);
      if (next != null) {
        chains.noReloadAfter.add(call);
        chains.noWriteBackBefore.add(next);
      }
    }
    return chains;
  }

  boolean reloadsAfter(AbstractInsnNode call) {
    return !noReloadAfter.contains(call);
  }

  boolean writesBackBefore(AbstractInsnNode call) {
    return !noWriteBackBefore.contains(call);
  }

  /** The next call, when straight-line code with nothing that needs the countdown leads to it. */
  private static AbstractInsnNode nextCallInLine(
      AbstractInsnNode call,
      Set<AbstractInsnNode> probed,
      FastPathRoutes routes,
      Set<LabelNode> merges) {
    for (AbstractInsnNode insn = call.getNext(); insn != null; insn = insn.getNext()) {
      if (insn instanceof LabelNode label) {
        if (merges.contains(label)) {
          return null;
        }
        continue;
      }
      if (insn instanceof FrameNode) {
        return null; // frames stand where control merges
      }
      int op = insn.getOpcode();
      if (op < 0) {
        continue; // line numbers
      }
      if (probed.contains(insn) || (routes != null && routes.atBoundary(insn) != null)) {
        return null;
      }
      if (insn instanceof MethodInsnNode || insn instanceof InvokeDynamicInsnNode) {
        return insn;
      }
      if (insn instanceof JumpInsnNode
          || insn instanceof TableSwitchInsnNode
          || insn instanceof LookupSwitchInsnNode
          || (op >= Opcodes.IRETURN && op <= Opcodes.RETURN)
          || op == Opcodes.ATHROW
          || op == Opcodes.RET) {
        return null;
      }
    }
    return null;
  }

  /** Labels that control can reach other than by falling through, and try-block bounds. */
  private static Set<LabelNode> mergeLabels(MethodNode method) {
    Set<LabelNode> labels = Collections.newSetFromMap(new IdentityHashMap<>());
    for (AbstractInsnNode insn : method.instructions) {
      if (insn instanceof JumpInsnNode jump) {
        labels.add(jump.label);
      } else if (insn instanceof TableSwitchInsnNode table) {
        labels.add(table.dflt);
        labels.addAll(table.labels);
      } else if (insn instanceof LookupSwitchInsnNode lookup) {
        labels.add(lookup.dflt);
        labels.addAll(lookup.labels);
      }
    }
    for (TryCatchBlockNode tcb : method.tryCatchBlocks) {
      labels.add(tcb.start);
      labels.add(tcb.end);
      labels.add(tcb.handler);
    }
    return labels;
  }

  private static Set<AbstractInsnNode> identitySet() {
    return Collections.newSetFromMap(new IdentityHashMap<>());
  }
}
