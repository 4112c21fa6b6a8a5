package dev.whyslow.agent.instrument;

import static org.objectweb.asm.Opcodes.*;

import dev.whyslow.protocol.Site;
import dev.whyslow.protocol.SiteKind;
import java.util.Arrays;
import java.util.List;
import org.objectweb.asm.Type;
import org.objectweb.asm.tree.AbstractInsnNode;
import org.objectweb.asm.tree.IincInsnNode;
import org.objectweb.asm.tree.InsnList;
import org.objectweb.asm.tree.LocalVariableNode;
import org.objectweb.asm.tree.MethodNode;
import org.objectweb.asm.tree.VarInsnNode;

/**
 * Plans the scalar-pair probes of one method: at every {@code istore}, {@code lstore} and {@code
 * iinc}, the new value against the local's old value (when the verifier knows the slot holds one of
 * that type) and against up to {@code partners} other locals of the same type, the nearest slots
 * first. javac numbers locals in declaration order, so near slots are usually the variables of the
 * same loop or block, e.g. an index and its bound; the cap keeps a store with many live ints from
 * growing the method and the predicate budget by one site per local.
 *
 * <p>A pair's site key uses {@code (ordinal << 16) | partnerSlot} as the instruction index, where
 * the partner slot is the stored slot itself for the old value. Both fit in 16 bits (a method has
 * under 65,536 instructions and locals), so keys of different pairs never coincide, and the kind in
 * the key keeps them apart from the branch or return at the same ordinal. Locals the
 * LocalVariableTable declares {@code boolean} are left out: their order means nothing.
 */
final class ScalarPairPlanner {
  private static final String S = MethodPlanner.S;
  private static final String INT_PROBE = "(II" + S;
  private static final String LONG_PROBE = "(JJ" + S;

  private final String className;
  private final String sourceFile;
  private final MethodNode method;
  private final int partners;
  private final LocalTypes types;
  private final boolean[] booleanParameter;

  ScalarPairPlanner(String className, String sourceFile, MethodNode method, int partners) {
    this.className = className;
    this.sourceFile = sourceFile;
    this.method = method;
    this.partners = partners;
    this.types = LocalTypes.of(method);
    this.booleanParameter = booleanParameters(method);
  }

  /**
   * Adds the probe points of the store at {@code index} (an int/long store) to {@code points}:
   * first the old value, then the partners in slot order.
   */
  void plan(
      int index,
      AbstractInsnNode insn,
      int ordinal,
      int line,
      int loopId,
      List<ProbePoint> points) {
    byte[] before = types.beforeStore(index);
    if (before == null) {
      return; // unreachable, or a method with subroutines
    }
    int op = insn.getOpcode();
    int slot = op == IINC ? ((IincInsnNode) insn).var : ((VarInsnNode) insn).var;
    byte type = op == LSTORE ? LocalTypes.LONG : LocalTypes.INT;
    // The stored variable's scope starts after its first store, so look it up there too.
    String name = name(slot, index + 1, index);
    if (name == null) {
      return; // a boolean
    }
    if (before[slot] == type) {
      points.add(point(insn, ordinal, slot, line, loopId, "new " + name + " vs old " + name));
    }
    int[] chosen = nearest(before, slot, type, index);
    for (int partner : chosen) {
      String other = name(partner, index, index);
      points.add(point(insn, ordinal, partner, line, loopId, "new " + name + " vs " + other));
    }
  }

  private ProbePoint point(
      AbstractInsnNode insn, int ordinal, int partner, int line, int loopId, String detail) {
    int keyIndex = (ordinal << 16) | partner;
    Site site =
        MethodPlanner.site(
            className, sourceFile, method, keyIndex, line, SiteKind.SCALAR_PAIR, loopId, detail);
    boolean wide = insn.getOpcode() == LSTORE;
    return new ProbePoint(
        insn,
        site,
        wide ? "scalarLong" : "scalarInt",
        wide ? LONG_PROBE : INT_PROBE,
        wide,
        partner);
  }

  /** Up to {@code partners} other slots of {@code type}, nearest first, returned in slot order. */
  private int[] nearest(byte[] before, int slot, byte type, int index) {
    int[] chosen = new int[partners];
    int count = 0;
    for (int distance = 1; count < partners && distance < before.length; distance++) {
      // Below before above, so ties go to the variable declared first.
      if (isPartner(before, slot - distance, type, index)) {
        chosen[count++] = slot - distance;
      }
      if (count < partners && isPartner(before, slot + distance, type, index)) {
        chosen[count++] = slot + distance;
      }
    }
    int[] out = Arrays.copyOf(chosen, count);
    Arrays.sort(out);
    return out;
  }

  private boolean isPartner(byte[] before, int candidate, byte type, int index) {
    return candidate >= 0
        && candidate < before.length
        && before[candidate] == type
        && name(candidate, index, index) != null;
  }

  /**
   * The source name of the local in {@code slot} at instruction {@code at} (else {@code fallback}),
   * {@code local#slot} when the class has no name for it, or {@code null} for a boolean.
   */
  private String name(int slot, int at, int fallback) {
    LocalVariableNode local = variable(slot, at);
    if (local == null && fallback != at) {
      local = variable(slot, fallback);
    }
    if (local != null) {
      return local.desc.equals("Z") ? null : local.name;
    }
    if (slot < booleanParameter.length && booleanParameter[slot]) {
      return null; // a boolean parameter of a class compiled without local variable names
    }
    return "local#" + slot;
  }

  private LocalVariableNode variable(int slot, int at) {
    if (method.localVariables == null) {
      return null;
    }
    InsnList insns = method.instructions;
    for (LocalVariableNode local : method.localVariables) {
      if (local.index == slot
          && insns.indexOf(local.start) <= at
          && at < insns.indexOf(local.end)) {
        return local;
      }
    }
    return null;
  }

  private static boolean[] booleanParameters(MethodNode method) {
    boolean[] out = new boolean[Math.max(0, method.maxLocals)];
    int slot = (method.access & ACC_STATIC) != 0 ? 0 : 1;
    for (Type arg : Type.getArgumentTypes(method.desc)) {
      if (slot < out.length && arg.getSort() == Type.BOOLEAN) {
        out[slot] = true;
      }
      slot += arg.getSize();
    }
    return out;
  }
}
