package dev.whyslow.agent.instrument;

import java.util.ArrayList;
import java.util.List;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.tree.AbstractInsnNode;
import org.objectweb.asm.tree.JumpInsnNode;
import org.objectweb.asm.tree.LookupSwitchInsnNode;
import org.objectweb.asm.tree.MethodNode;
import org.objectweb.asm.tree.TableSwitchInsnNode;

/**
 * Loops whose only probe is the branch that decides whether they iterate again, with no call,
 * switch, return or throw inside and no other way out: {@code while (a[i] < pivot) i++}, a sieve's
 * inner loop, a dot product. Their outcomes are known without looking: every evaluation of the
 * branch but the last continues the loop, the last leaves it. So such a loop runs on bare
 * decrements, with no countdown check at all, and the samples that fell inside are recorded exactly
 * when it exits ({@code CheckedProbes.loopExit}). An exception thrown inside (an index out of
 * bounds) leaves without settling; the evaluations since the last call are then lost, as they are
 * for checked probes.
 */
final class PureLoops {
  /**
   * One such loop, by instruction indexes.
   *
   * @param branch the deciding branch, the loop's only probe
   * @param header the first instruction of the header block
   * @param exit where the branch leaves the loop
   * @param exitPredicate the branch predicate that leaves: 0 when the jump is taken, 1 when not
   */
  record PureLoop(int branch, int header, int exit, int exitPredicate) {}

  private PureLoops() {}

  static List<PureLoop> find(
      MethodNode method, AbstractInsnNode[] code, int[][] successors, int[] sites) {
    LoopAnalysis loops = LoopAnalysis.of(method);
    List<PureLoop> found = new ArrayList<>();
    for (LoopAnalysis.Loop loop : loops.loops()) {
      PureLoop pure = pure(loops, loop, code, successors, sites);
      if (pure != null) {
        found.add(pure);
      }
    }
    return found;
  }

  private static PureLoop pure(
      LoopAnalysis loops,
      LoopAnalysis.Loop loop,
      AbstractInsnNode[] code,
      int[][] successors,
      int[] sites) {
    int branch = -1;
    int exit = -1;
    for (int i = 0; i < code.length; i++) {
      if (!loop.body().get(loops.blockOf(i))) {
        continue;
      }
      AbstractInsnNode insn = code[i];
      int op = insn.getOpcode();
      if (FastPathPlan.isCall(insn)
          || insn instanceof TableSwitchInsnNode
          || insn instanceof LookupSwitchInsnNode
          || (op >= Opcodes.IRETURN && op <= Opcodes.RETURN)
          || op == Opcodes.ATHROW) {
        return null;
      }
      if (sites[i] > 0) {
        if (branch >= 0 || sites[i] > 1 || !(insn instanceof JumpInsnNode)) {
          return null;
        }
        branch = i;
      }
      for (int w : successors[i]) {
        if (!loop.body().get(loops.blockOf(w))) {
          if (exit >= 0 || sites[i] == 0) {
            return null; // a second way out, or one not through the probe
          }
          exit = w;
        }
      }
    }
    if (branch < 0 || exit < 0) {
      return null;
    }
    int target = successors[branch][0]; // a conditional jump's successors: target, fall-through
    if (successors[branch].length != 2 || target == successors[branch][1]) {
      return null;
    }
    return new PureLoop(branch, loops.headerStart(loop), exit, exit == target ? 0 : 1);
  }
}
