package dev.whyslow.agent.instrument;

import org.objectweb.asm.Opcodes;
import org.objectweb.asm.tree.AbstractInsnNode;
import org.objectweb.asm.tree.IincInsnNode;
import org.objectweb.asm.tree.IntInsnNode;
import org.objectweb.asm.tree.LookupSwitchInsnNode;
import org.objectweb.asm.tree.MethodInsnNode;
import org.objectweb.asm.tree.MethodNode;
import org.objectweb.asm.tree.TableSwitchInsnNode;
import org.objectweb.asm.tree.VarInsnNode;

/**
 * A method's code length in bytes, as the class file will have it, give or take the padding of a
 * switch and the width of a constant-pool index: the JIT's limits (what it inlines, what it
 * compiles at all) are in these bytes, and the agent must know on which side of them a method falls
 * before it writes the class.
 */
final class BytecodeSize {
  private BytecodeSize() {}

  /** The estimated length of {@code method}'s code; 0 for a method without code. */
  static int of(MethodNode method) {
    int size = 0;
    for (AbstractInsnNode insn : method.instructions) {
      size += of(insn);
    }
    return size;
  }

  private static int of(AbstractInsnNode insn) {
    int op = insn.getOpcode();
    if (op < 0) {
      return 0; // labels, line numbers, frames
    }
    return switch (insn.getType()) {
      case AbstractInsnNode.INSN -> 1;
      case AbstractInsnNode.INT_INSN -> ((IntInsnNode) insn).getOpcode() == Opcodes.SIPUSH ? 3 : 2;
      case AbstractInsnNode.VAR_INSN -> variable((VarInsnNode) insn);
      case AbstractInsnNode.IINC_INSN -> {
        IincInsnNode iinc = (IincInsnNode) insn;
        yield iinc.var > 255 || iinc.incr < Byte.MIN_VALUE || iinc.incr > Byte.MAX_VALUE ? 6 : 3;
      }
      case AbstractInsnNode.LDC_INSN -> 3; // ldc is 2 in a small pool; ldc_w and ldc2_w are 3
      case AbstractInsnNode.METHOD_INSN ->
          ((MethodInsnNode) insn).getOpcode() == Opcodes.INVOKEINTERFACE ? 5 : 3;
      case AbstractInsnNode.INVOKE_DYNAMIC_INSN -> 5;
      case AbstractInsnNode.MULTIANEWARRAY_INSN -> 4;
      case AbstractInsnNode.TABLESWITCH_INSN ->
          1 + 3 + 12 + 4 * ((TableSwitchInsnNode) insn).labels.size(); // up to 3 bytes padding
      case AbstractInsnNode.LOOKUPSWITCH_INSN ->
          1 + 3 + 8 + 8 * ((LookupSwitchInsnNode) insn).keys.size();
      default -> 3; // type, field and jump instructions
    };
  }

  private static int variable(VarInsnNode insn) {
    if (insn.var > 255) {
      return 4; // wide
    }
    // The loads and stores of locals 0 to 3 have one-byte forms; ret does not.
    return insn.var <= 3 && insn.getOpcode() != Opcodes.RET ? 1 : 2;
  }
}
