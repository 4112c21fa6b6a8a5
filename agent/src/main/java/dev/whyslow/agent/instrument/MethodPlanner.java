package dev.whyslow.agent.instrument;

import static org.objectweb.asm.Opcodes.*;

import dev.whyslow.agent.config.ProbeSet;
import dev.whyslow.protocol.Site;
import dev.whyslow.protocol.SiteKeys;
import dev.whyslow.protocol.SiteKind;
import java.util.ArrayList;
import java.util.List;
import org.objectweb.asm.Type;
import org.objectweb.asm.tree.AbstractInsnNode;
import org.objectweb.asm.tree.InsnList;
import org.objectweb.asm.tree.InvokeDynamicInsnNode;
import org.objectweb.asm.tree.JumpInsnNode;
import org.objectweb.asm.tree.LineNumberNode;
import org.objectweb.asm.tree.MethodInsnNode;
import org.objectweb.asm.tree.MethodNode;

/**
 * Finds the probe points of one method without changing it: every conditional jump (classified as a
 * branch or a loop branch from the method's natural loops), every value return and, when asked,
 * every int/long local store ({@link ScalarPairPlanner}). A site's key uses the ordinal of its
 * instruction among the method's real instructions, which is the same for the same bytecode
 * whatever tool read it.
 */
final class MethodPlanner {
  static final String STATE = "dev/whyslow/agent/bootstrap/ThreadState";

  /**
   * A sampled-path probe takes its operands, the state and the slot; returns the next countdown.
   */
  static final String S = "L" + STATE + ";I)I";

  private static final String[] BRANCH_PROBES = {
    "ifeq", "ifne", "iflt", "ifge", "ifgt", "ifle",
    "ifIcmpeq", "ifIcmpne", "ifIcmplt", "ifIcmpge", "ifIcmpgt", "ifIcmple",
    "ifAcmpeq", "ifAcmpne"
  };
  private static final String[] BRANCH_MNEMONICS = {
    "ifeq", "ifne", "iflt", "ifge", "ifgt", "ifle",
    "if_icmpeq", "if_icmpne", "if_icmplt", "if_icmpge", "if_icmpgt", "if_icmple",
    "if_acmpeq", "if_acmpne"
  };

  private MethodPlanner() {}

  /** Whether the method has code the agent may change at all. */
  static boolean instrumentable(MethodNode method) {
    return (method.access & (ACC_ABSTRACT | ACC_NATIVE | ACC_BRIDGE)) == 0
        && method.instructions.size() > 0
        && method.maxLocals < 0xFFFD; // room for the state, countdown and depth locals
  }

  /**
   * @throws IllegalArgumentException when the method cannot be analysed (e.g. subroutines)
   */
  static List<ProbePoint> plan(
      String className, String sourceFile, MethodNode method, ProbeSet probes) {
    List<ProbePoint> points = new ArrayList<>();
    InsnList insns = method.instructions;
    Type returnType = Type.getReturnType(method.desc);
    LoopAnalysis loops = null;
    ScalarPairPlanner scalarPairs = null;
    boolean returns = probes.returns() && !isTrivial(method) && !LambdaGlue.isGlue(method);
    int ordinal = -1;
    int line = -1;
    for (int i = 0; i < insns.size(); i++) {
      AbstractInsnNode insn = insns.get(i);
      if (insn instanceof LineNumberNode lineNode) {
        line = lineNode.line;
        continue;
      }
      int op = insn.getOpcode();
      if (op < 0) {
        continue;
      }
      ordinal++;
      if (probes.branches() && isConditionalJump(op)) {
        if (loops == null) {
          loops = LoopAnalysis.of(method);
        }
        int target = insns.indexOf(((JumpInsnNode) insn).label);
        int decided = loops.decidedLoop(i, target);
        SiteKind kind = decided >= 0 ? SiteKind.LOOP_BRANCH : SiteKind.BRANCH;
        int loopId = decided >= 0 ? decided : loops.loopIdOf(i);
        Site site = site(className, sourceFile, method, ordinal, line, kind, loopId, mnemonic(op));
        points.add(branchPoint(insn, site, op));
      } else if (returns && op >= IRETURN && op <= ARETURN) {
        ProbePoint point =
            returnPoint(className, sourceFile, method, insn, ordinal, line, returnType);
        if (point != null) {
          points.add(point);
        }
      } else if (probes.scalarPairs() && LocalTypes.isScalarStore(op)) {
        if (loops == null) {
          loops = LoopAnalysis.of(method);
        }
        if (scalarPairs == null) {
          scalarPairs =
              new ScalarPairPlanner(className, sourceFile, method, probes.scalarPairPartners());
        }
        scalarPairs.plan(i, insn, ordinal, line, loops.loopIdOf(i), points);
      }
    }
    return points;
  }

  /** Longest straight-line method that still counts as trivial, in real instructions. */
  static final int TRIVIAL_MAX_INSTRUCTIONS = 12;

  /**
   * Whether the method is a trivial straight line — an accessor, a constant, a little arithmetic on
   * fields: no jump, switch, call or throw, and at most {@value #TRIVIAL_MAX_INSTRUCTIONS}
   * instructions. Such methods get no return probe: their value is a field or a constant that
   * branch predicates elsewhere already see, the JIT would inline them to almost nothing, and the
   * per-invocation state fetch a probe needs would cost several times the method itself (on a
   * service-shaped workload, return probes on accessors were most of the agent's overhead).
   */
  static boolean isTrivial(MethodNode method) {
    return isStraightLine(method, false);
  }

  /**
   * Whether the method is a straight line of at most {@value #TRIVIAL_MAX_INSTRUCTIONS}
   * instructions: no jump, switch or throw, and no call unless {@code callsAllowed}.
   */
  static boolean isStraightLine(MethodNode method, boolean callsAllowed) {
    int real = 0;
    for (AbstractInsnNode insn : method.instructions) {
      int op = insn.getOpcode();
      if (op < 0) {
        continue;
      }
      boolean call = insn instanceof MethodInsnNode || insn instanceof InvokeDynamicInsnNode;
      if (++real > TRIVIAL_MAX_INSTRUCTIONS
          || insn instanceof JumpInsnNode
          || (call && !callsAllowed)
          || op == TABLESWITCH
          || op == LOOKUPSWITCH
          || op == ATHROW) {
        return false;
      }
    }
    return true;
  }

  private static boolean isConditionalJump(int op) {
    return (op >= IFEQ && op <= IF_ACMPNE) || op == IFNULL || op == IFNONNULL;
  }

  private static String mnemonic(int op) {
    if (op == IFNULL) {
      return "ifnull";
    }
    if (op == IFNONNULL) {
      return "ifnonnull";
    }
    return BRANCH_MNEMONICS[op - IFEQ];
  }

  private static ProbePoint branchPoint(AbstractInsnNode insn, Site site, int op) {
    if (op == IFNULL) {
      return new ProbePoint(insn, site, "ifNull", "(Ljava/lang/Object;" + S, false);
    }
    if (op == IFNONNULL) {
      return new ProbePoint(insn, site, "ifNonNull", "(Ljava/lang/Object;" + S, false);
    }
    String probe = BRANCH_PROBES[op - IFEQ];
    if (op <= IFLE) {
      return new ProbePoint(insn, site, probe, "(I" + S, false);
    }
    if (op <= IF_ICMPLE) {
      return new ProbePoint(insn, site, probe, "(II" + S, true);
    }
    return new ProbePoint(insn, site, probe, "(Ljava/lang/Object;Ljava/lang/Object;" + S, true);
  }

  private static ProbePoint returnPoint(
      String className,
      String sourceFile,
      MethodNode method,
      AbstractInsnNode insn,
      int ordinal,
      int line,
      Type returnType) {
    String probe;
    String operand;
    SiteKind kind = SiteKind.RETURN_NUMERIC;
    switch (returnType.getSort()) {
      case Type.BOOLEAN -> {
        probe = "returnBoolean";
        operand = "I";
        kind = SiteKind.RETURN_BOOLEAN;
      }
      case Type.BYTE, Type.CHAR, Type.SHORT, Type.INT -> {
        probe = "returnInt";
        operand = "I";
      }
      case Type.LONG -> {
        probe = "returnLong";
        operand = "J";
      }
      case Type.FLOAT -> {
        probe = "returnFloat";
        operand = "F";
      }
      case Type.DOUBLE -> {
        probe = "returnDouble";
        operand = "D";
      }
      case Type.OBJECT, Type.ARRAY -> {
        probe = "returnReference";
        operand = "Ljava/lang/Object;";
        kind = SiteKind.RETURN_REFERENCE;
      }
      default -> {
        return null;
      }
    }
    Site site = site(className, sourceFile, method, ordinal, line, kind, -1, "");
    boolean wide = returnType.getSize() == 2;
    return new ProbePoint(insn, site, probe, "(" + operand + S, wide);
  }

  /**
   * @param keyIndex the instruction index in the site key: the ordinal, or for scalar pairs the
   *     ordinal and partner slot ({@link ScalarPairPlanner})
   */
  static Site site(
      String className,
      String sourceFile,
      MethodNode method,
      int keyIndex,
      int line,
      SiteKind kind,
      int loopId,
      String detail) {
    long key = SiteKeys.key(className, method.name, method.desc, keyIndex, kind);
    return new Site(
        key,
        className,
        method.name,
        method.desc,
        sourceFile == null ? "" : sourceFile,
        line,
        kind,
        loopId,
        detail);
  }
}
