package dev.whyslow.agent.instrument;

import static org.objectweb.asm.Opcodes.*;

import java.util.List;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.Type;
import org.objectweb.asm.tree.AbstractInsnNode;
import org.objectweb.asm.tree.FrameNode;
import org.objectweb.asm.tree.InsnList;
import org.objectweb.asm.tree.JumpInsnNode;
import org.objectweb.asm.tree.LabelNode;
import org.objectweb.asm.tree.LookupSwitchInsnNode;
import org.objectweb.asm.tree.MethodNode;
import org.objectweb.asm.tree.TableSwitchInsnNode;
import org.objectweb.asm.tree.TryCatchBlockNode;
import org.objectweb.asm.tree.VarInsnNode;

/**
 * Which locals hold an {@code int} or a {@code long} just before each int/long store, exactly as
 * the JVM's verifier sees them, so a probe may load them without a {@code VerifyError}.
 *
 * <p>The declared stack map frames are the truth where they exist: javac drops a variable from the
 * frame once it goes out of scope even when every path still leaves an int in its slot, so a
 * data-flow merge (what ASM's {@code Analyzer} computes) would call such a slot an int and the
 * inserted load would be rejected. Between frames the types follow the instructions, as in the
 * verifier. Old class files without frames get the same merge the old inference verifier does, with
 * exception handlers seeing the locals before and after every protected instruction.
 */
final class LocalTypes {
  /** Unusable: unassigned, another type, the second half of a long or double, or merged apart. */
  static final byte TOP = 0;

  static final byte INT = 1;

  /** The first slot of a {@code long}; the second slot is {@link #TOP}. */
  static final byte LONG = 2;

  private static final LocalTypes NONE = new LocalTypes(null);

  /** By instruction index: the local types before each reachable int/long store, else null. */
  private final byte[][] beforeStore;

  private LocalTypes(byte[][] beforeStore) {
    this.beforeStore = beforeStore;
  }

  /** Whether the instruction stores into an int or long local. */
  static boolean isScalarStore(int opcode) {
    return opcode == ISTORE || opcode == LSTORE || opcode == IINC;
  }

  /**
   * The local types before the store at {@code insnIndex} (indexed by slot; do not modify), or
   * {@code null} when it is unreachable or not an int/long store.
   */
  byte[] beforeStore(int insnIndex) {
    return beforeStore == null ? null : beforeStore[insnIndex];
  }

  /** Analyses one method; methods with subroutines ({@code jsr/ret}) get no types at all. */
  static LocalTypes of(MethodNode method) {
    return new Walk(method).run();
  }

  /**
   * A work-list walk over the method from its leaders (entry, jump and switch targets, handlers),
   * each walked straight on until the flow ends or meets another leader.
   */
  private static final class Walk {
    private final InsnList insns;
    private final int size;
    private final int locals;
    private final boolean framed;
    private final List<TryCatchBlockNode> handlers;
    private final boolean[] leader;
    private final byte[][] in;
    private final byte[][] beforeStore;
    private final int[] work;
    private final boolean[] queued;
    private int pending;

    Walk(MethodNode method) {
      insns = method.instructions;
      size = insns.size();
      locals = method.maxLocals;
      framed = hasFrames(insns);
      handlers = method.tryCatchBlocks;
      leader = new boolean[size];
      in = new byte[size][];
      beforeStore = new byte[size][];
      work = new int[size];
      queued = new boolean[size];
      in[0] = entry(method, locals);
      leader[0] = true;
    }

    LocalTypes run() {
      for (AbstractInsnNode insn : insns) {
        int op = insn.getOpcode();
        if (op == JSR || op == RET) {
          return NONE; // the verifier types subroutines by path; not worth modelling
        }
        if (insn instanceof JumpInsnNode jump) {
          leader[start(jump.label)] = true;
        } else if (insn instanceof TableSwitchInsnNode table) {
          markLeaders(table.labels, table.dflt);
        } else if (insn instanceof LookupSwitchInsnNode lookup) {
          markLeaders(lookup.labels, lookup.dflt);
        }
      }
      for (TryCatchBlockNode tcb : handlers) {
        int handler = start(tcb.handler);
        leader[handler] = true;
        if (framed) {
          // Its declared frame gives the types; nothing needs merging into it.
          merge(handler, new byte[locals]);
        }
      }
      push(0);
      while (pending > 0) {
        int from = work[--pending];
        queued[from] = false;
        walkFrom(from);
      }
      return new LocalTypes(beforeStore);
    }

    private void walkFrom(int from) {
      byte[] types = in[from].clone();
      for (int i = from; i < size; i++) {
        if (i != from && leader[i]) {
          merge(i, types);
          return;
        }
        AbstractInsnNode insn = insns.get(i);
        if (insn instanceof FrameNode frame) {
          types = fromFrame(frame, locals);
          continue;
        }
        int op = insn.getOpcode();
        if (op < 0) {
          continue;
        }
        if (!framed) {
          mergeIntoHandlers(i, types);
        }
        if (isScalarStore(op)) {
          beforeStore[i] = types.clone(); // the last walk from the leader's final state wins
        }
        if (insn instanceof VarInsnNode var && op >= ISTORE && op <= ASTORE) {
          store(types, var.var, op);
          if (!framed) {
            mergeIntoHandlers(i, types);
          }
        } else if (insn instanceof JumpInsnNode jump) {
          merge(start(jump.label), types);
          if (op == GOTO) {
            return;
          }
        } else if (insn instanceof TableSwitchInsnNode table) {
          mergeAll(table.labels, table.dflt, types);
          return;
        } else if (insn instanceof LookupSwitchInsnNode lookup) {
          mergeAll(lookup.labels, lookup.dflt, types);
          return;
        } else if ((op >= IRETURN && op <= RETURN) || op == ATHROW) {
          return;
        }
      }
    }

    private void store(byte[] types, int slot, int op) {
      if (slot > 0 && types[slot - 1] == LONG) {
        types[slot - 1] = TOP; // overwrote the second half of a long
      }
      types[slot] = op == ISTORE ? INT : op == LSTORE ? LONG : TOP;
      if ((op == LSTORE || op == DSTORE) && slot + 1 < locals) {
        types[slot + 1] = TOP;
      }
    }

    private void mergeIntoHandlers(int insnIndex, byte[] types) {
      for (TryCatchBlockNode tcb : handlers) {
        if (insns.indexOf(tcb.start) <= insnIndex && insnIndex < insns.indexOf(tcb.end)) {
          merge(start(tcb.handler), types);
        }
      }
    }

    private void mergeAll(List<LabelNode> labels, LabelNode dflt, byte[] types) {
      merge(start(dflt), types);
      for (LabelNode label : labels) {
        merge(start(label), types);
      }
    }

    private void merge(int target, byte[] types) {
      byte[] known = in[target];
      if (known == null) {
        in[target] = types.clone();
        push(target);
        return;
      }
      boolean changed = false;
      for (int slot = 0; slot < locals; slot++) {
        if (known[slot] != TOP && known[slot] != types[slot]) {
          known[slot] = TOP;
          changed = true;
        }
      }
      if (changed) {
        push(target);
      }
    }

    private void push(int leaderIndex) {
      if (!queued[leaderIndex]) {
        queued[leaderIndex] = true;
        work[pending++] = leaderIndex;
      }
    }

    private void markLeaders(List<LabelNode> labels, LabelNode dflt) {
      leader[start(dflt)] = true;
      for (LabelNode label : labels) {
        leader[start(label)] = true;
      }
    }

    /**
     * The first of the labels, line numbers and frames just before the label's instruction: the
     * walk must pass the position's frame whether it sits before or after the label.
     */
    private int start(LabelNode label) {
      int i = insns.indexOf(label);
      while (i > 0 && insns.get(i - 1).getOpcode() < 0) {
        i--;
      }
      return i;
    }
  }

  private static boolean hasFrames(InsnList insns) {
    for (AbstractInsnNode insn : insns) {
      if (insn instanceof FrameNode) {
        return true;
      }
    }
    return false;
  }

  /** The parameters' types at method entry; {@code this} is a reference. */
  private static byte[] entry(MethodNode method, int locals) {
    byte[] types = new byte[locals];
    int slot = (method.access & ACC_STATIC) != 0 ? 0 : 1;
    for (Type arg : Type.getArgumentTypes(method.desc)) {
      if (slot >= locals) {
        break;
      }
      switch (arg.getSort()) {
        case Type.BOOLEAN, Type.BYTE, Type.CHAR, Type.SHORT, Type.INT -> types[slot] = INT;
        case Type.LONG -> types[slot] = LONG;
        default -> {}
      }
      slot += arg.getSize();
    }
    return types;
  }

  /** The locals of an expanded frame; a long or double is one element there but two slots. */
  private static byte[] fromFrame(FrameNode frame, int locals) {
    byte[] types = new byte[locals];
    if (frame.local == null) {
      return types;
    }
    int slot = 0;
    for (Object local : frame.local) {
      if (slot >= locals) {
        break;
      }
      // Opcodes' verification types, spelled out: this class's own LONG and TOP shadow them.
      if (Opcodes.INTEGER.equals(local)) {
        types[slot++] = INT;
      } else if (Opcodes.LONG.equals(local)) {
        types[slot] = LONG;
        slot += 2;
      } else {
        slot += Opcodes.DOUBLE.equals(local) ? 2 : 1;
      }
    }
    return types;
  }
}
