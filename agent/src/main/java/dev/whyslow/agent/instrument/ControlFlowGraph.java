package dev.whyslow.agent.instrument;

import java.util.ArrayList;
import java.util.List;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.tree.AbstractInsnNode;
import org.objectweb.asm.tree.InsnList;
import org.objectweb.asm.tree.JumpInsnNode;
import org.objectweb.asm.tree.LabelNode;
import org.objectweb.asm.tree.LookupSwitchInsnNode;
import org.objectweb.asm.tree.MethodNode;
import org.objectweb.asm.tree.TableSwitchInsnNode;
import org.objectweb.asm.tree.TryCatchBlockNode;

/**
 * The basic blocks of one method and the edges between them, exception edges included, built from
 * the instruction list alone so loops are found the same way whatever compiler laid the code out.
 * Blocks are ranges of {@link InsnList} indexes; block 0 is the entry.
 */
final class ControlFlowGraph {
  private final int[] blockOf;
  private final int[] starts;
  private final int[][] successors;

  private ControlFlowGraph(int[] blockOf, int[] starts, int[][] successors) {
    this.blockOf = blockOf;
    this.starts = starts;
    this.successors = successors;
  }

  /**
   * @throws IllegalArgumentException for methods with {@code jsr}/{@code ret} subroutines, whose
   *     control flow is not described by the instructions alone
   */
  static ControlFlowGraph of(MethodNode method) {
    InsnList insns = method.instructions;
    int n = insns.size();
    boolean[] leader = new boolean[n + 1];
    leader[0] = true;
    for (int i = 0; i < n; i++) {
      AbstractInsnNode insn = insns.get(i);
      int op = insn.getOpcode();
      if (op == Opcodes.JSR || op == Opcodes.RET) {
        throw new IllegalArgumentException("subroutines (jsr/ret) are not analysed");
      }
      if (insn instanceof JumpInsnNode jump) {
        leader[insns.indexOf(jump.label)] = true;
        leader[i + 1] = true;
      } else if (insn instanceof TableSwitchInsnNode table) {
        markAll(leader, insns, table.labels, table.dflt);
        leader[i + 1] = true;
      } else if (insn instanceof LookupSwitchInsnNode lookup) {
        markAll(leader, insns, lookup.labels, lookup.dflt);
        leader[i + 1] = true;
      } else if (endsFlow(op)) {
        leader[i + 1] = true;
      }
    }
    for (TryCatchBlockNode tcb : method.tryCatchBlocks) {
      leader[insns.indexOf(tcb.start)] = true;
      leader[insns.indexOf(tcb.end)] = true;
      leader[insns.indexOf(tcb.handler)] = true;
    }

    int[] blockOf = new int[n];
    List<Integer> startList = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      if (leader[i]) {
        startList.add(i);
      }
      blockOf[i] = startList.size() - 1;
    }
    int blocks = startList.size();
    int[] starts = new int[blocks + 1];
    for (int b = 0; b < blocks; b++) {
      starts[b] = startList.get(b);
    }
    starts[blocks] = n;

    List<List<Integer>> succ = new ArrayList<>();
    for (int b = 0; b < blocks; b++) {
      succ.add(new ArrayList<>());
      AbstractInsnNode last = lastRealInsn(insns, starts[b], starts[b + 1]);
      int op = last == null ? -1 : last.getOpcode();
      boolean fallsThrough = true;
      if (last instanceof JumpInsnNode jump) {
        addEdge(succ.get(b), blockOf[insns.indexOf(jump.label)]);
        fallsThrough = op != Opcodes.GOTO;
      } else if (last instanceof TableSwitchInsnNode table) {
        addTargets(succ.get(b), blockOf, insns, table.labels, table.dflt);
        fallsThrough = false;
      } else if (last instanceof LookupSwitchInsnNode lookup) {
        addTargets(succ.get(b), blockOf, insns, lookup.labels, lookup.dflt);
        fallsThrough = false;
      } else if (endsFlow(op)) {
        fallsThrough = false;
      }
      if (fallsThrough && b + 1 < blocks) {
        addEdge(succ.get(b), b + 1);
      }
    }
    // An exception edge from every block inside a protected range to its handler. Range ends are
    // leaders, so a block is either wholly inside a range or wholly outside it.
    for (TryCatchBlockNode tcb : method.tryCatchBlocks) {
      int from = blockOf[insns.indexOf(tcb.start)];
      int to = insns.indexOf(tcb.end) >= n ? blocks : blockOf[insns.indexOf(tcb.end)];
      int handler = blockOf[insns.indexOf(tcb.handler)];
      for (int b = from; b < to; b++) {
        addEdge(succ.get(b), handler);
      }
    }
    int[][] successors = new int[blocks][];
    for (int b = 0; b < blocks; b++) {
      List<Integer> list = succ.get(b);
      successors[b] = new int[list.size()];
      for (int k = 0; k < list.size(); k++) {
        successors[b][k] = list.get(k);
      }
    }
    return new ControlFlowGraph(blockOf, starts, successors);
  }

  int blockCount() {
    return successors.length;
  }

  /** The block holding the instruction at {@code insnIndex}. */
  int blockOf(int insnIndex) {
    return blockOf[insnIndex];
  }

  /** Index of the block's first instruction. */
  int start(int block) {
    return starts[block];
  }

  int[] successors(int block) {
    return successors[block];
  }

  private static boolean endsFlow(int op) {
    return (op >= Opcodes.IRETURN && op <= Opcodes.RETURN) || op == Opcodes.ATHROW;
  }

  private static AbstractInsnNode lastRealInsn(InsnList insns, int from, int to) {
    for (int i = to - 1; i >= from; i--) {
      if (insns.get(i).getOpcode() >= 0) {
        return insns.get(i);
      }
    }
    return null;
  }

  private static void markAll(
      boolean[] leader, InsnList insns, List<LabelNode> labels, LabelNode dflt) {
    leader[insns.indexOf(dflt)] = true;
    for (LabelNode label : labels) {
      leader[insns.indexOf(label)] = true;
    }
  }

  private static void addTargets(
      List<Integer> to, int[] blockOf, InsnList insns, List<LabelNode> labels, LabelNode dflt) {
    addEdge(to, blockOf[insns.indexOf(dflt)]);
    for (LabelNode label : labels) {
      addEdge(to, blockOf[insns.indexOf(label)]);
    }
  }

  private static void addEdge(List<Integer> to, int block) {
    if (!to.contains(block)) {
      to.add(block);
    }
  }
}
