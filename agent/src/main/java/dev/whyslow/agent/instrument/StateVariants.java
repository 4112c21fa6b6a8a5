package dev.whyslow.agent.instrument;

import dev.whyslow.agent.bootstrap.StateCalls;
import java.util.HashSet;
import java.util.Set;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.Type;
import org.objectweb.asm.tree.AbstractInsnNode;
import org.objectweb.asm.tree.ClassNode;
import org.objectweb.asm.tree.InsnList;
import org.objectweb.asm.tree.JumpInsnNode;
import org.objectweb.asm.tree.LabelNode;
import org.objectweb.asm.tree.MethodInsnNode;
import org.objectweb.asm.tree.MethodNode;
import org.objectweb.asm.tree.VarInsnNode;

/**
 * The callee's side of passing the thread state ({@link StateCalls}). A short method follows its
 * thread's last choice ({@code Probes.followingEntry}) and does nothing else at entry, but that
 * needs the thread's state: a lookup of five dependent loads, which the JIT redoes after every call
 * between it and its caller's own. Most such methods are called from instrumented code that already
 * holds the state. So a short method that cannot be overridden gets a variant taking the state as
 * an extra last argument: its entry reads two fields of the argument, and its own code is a copy of
 * the method's (short, by definition); its copies are the method's. Callers reach it through {@link
 * StateCalls#link}; every other caller (the JDK, reflection, a method reference) calls the method
 * itself, unchanged.
 *
 * <p>The variant is an overload under the method's own name, synthetic, as javac's bridge methods
 * are: a stack trace through it names the method as the source does, and reflection that skips
 * synthetic methods skips it. It is package-private (private for a private method), and final where
 * it could be overridden, so no code outside the package sees it and no subclass clashes with it;
 * with the state last it never looks like a bean property either. Only methods bound at compile
 * time, static, private or final or of a final class: a call to the variant must run the code the
 * plain call would have run, whatever the receiver.
 */
final class StateVariants {
  private StateVariants() {}

  /**
   * Whether {@code method} of {@code owner} gets a variant, judged on its bytecode as javac wrote
   * it: by the callee's transformation, and by its callers' to guess whether it will have one. It
   * also has to have copies, which a method without probe points does not: the guess leaves out the
   * methods that surely have none.
   */
  static boolean eligible(ClassNode owner, MethodNode method) {
    return !DepthCounting.jdk(owner.name)
        && MethodPlanner.instrumentable(method)
        && MethodCopies.dispatchable(owner, method)
        && staticallyBound(owner.access, method.access)
        && DepthCounting.isShort(method)
        && !SelfCalls.recursesAlone(owner.name, owner.access, method)
        && mayHaveProbes(method);
  }

  /** The name and descriptor of each method of {@code owner} that gets a variant. */
  static Set<String> of(ClassNode owner) {
    Set<String> variants = new HashSet<>();
    for (MethodNode method : owner.methods) {
      if (eligible(owner, method)) {
        variants.add(method.name + method.desc);
      }
    }
    return variants;
  }

  private static boolean staticallyBound(int classAccess, int methodAccess) {
    return (methodAccess & (Opcodes.ACC_STATIC | Opcodes.ACC_PRIVATE | Opcodes.ACC_FINAL)) != 0
        || (classAccess & Opcodes.ACC_FINAL) != 0;
  }

  private static boolean mayHaveProbes(MethodNode method) {
    if (MethodPlanner.isTrivial(method)) {
      return false; // no branch and no return probe
    }
    if (Type.getReturnType(method.desc).getSort() != Type.VOID) {
      return true;
    }
    for (AbstractInsnNode insn : method.instructions) {
      if (insn instanceof JumpInsnNode jump && jump.getOpcode() != Opcodes.GOTO) {
        return true;
      }
    }
    return false;
  }

  /** Whether {@code method} is a variant: its last argument is the thread state. */
  static boolean isVariant(MethodNode method) {
    return method.desc.contains("L" + MethodPlanner.STATE + ";)");
  }

  /** The variant's descriptor: {@code desc} with the state appended to its arguments. */
  static String descriptor(String desc) {
    return desc.replace(")", "L" + MethodPlanner.STATE + ";)");
  }

  /**
   * Makes {@code code}, a copy of a method's own code as javac wrote it ({@code
   * MethodCopies.copyOf}), the method's variant: {@code Probes.followingEntry(state)} (or {@code
   * followingCountedEntry}) chooses between {@code target}, the copy with probes or the chooser
   * between the copies, which takes the choice as a last argument when {@code chooser} is set, and
   * the own code.
   */
  static void make(
      String owner, MethodNode code, MethodNode target, boolean chooser, boolean counted) {
    String plainDesc = code.desc;
    int ownAccess = code.access;
    int state = MethodCopies.argumentSlots(code);
    // The own code may reuse the state's slot for a local of its own once the entry has read it.
    int choice = Math.max(code.maxLocals, state + 1);
    InsnList entry = new InsnList();
    LabelNode ownCode = new LabelNode();
    // stack: (empty, method entry)
    entry.add(new VarInsnNode(Opcodes.ALOAD, state));
    String follow = counted ? "followingCountedEntry" : "followingEntry";
    entry.add(
        new MethodInsnNode(
            Opcodes.INVOKESTATIC,
            MethodRewriter.PROBES,
            follow,
            "(L" + MethodPlanner.STATE + ";)I",
            false));
    entry.add(new VarInsnNode(Opcodes.ISTORE, choice));
    entry.add(new VarInsnNode(Opcodes.ILOAD, choice));
    entry.add(new JumpInsnNode(Opcodes.IFEQ, ownCode)); // Probes.OWN
    entry.add(MethodCopies.callAndReturn(owner, code, target, chooser ? choice : -1));
    entry.add(ownCode);
    if (!MethodCopies.startsWithFrame(code)) {
      // The state is left out: the own code never reads it.
      entry.add(MethodCopies.frame(MethodCopies.entryLocals(owner, code)));
    }
    code.instructions.insert(entry);
    code.desc = descriptor(plainDesc);
    code.access = access(ownAccess);
    code.maxLocals = choice + 1;
    code.maxStack = Math.max(code.maxStack, state + 1);
  }

  private static int access(int ownAccess) {
    int kept = ownAccess & (Opcodes.ACC_STATIC | Opcodes.ACC_SYNCHRONIZED | Opcodes.ACC_STRICT);
    if ((ownAccess & Opcodes.ACC_PRIVATE) != 0) {
      return kept | Opcodes.ACC_PRIVATE | Opcodes.ACC_SYNTHETIC;
    }
    int overridable = (ownAccess & Opcodes.ACC_STATIC) == 0 ? Opcodes.ACC_FINAL : 0;
    return kept | overridable | Opcodes.ACC_SYNTHETIC;
  }
}
