package dev.whyslow.agent.instrument;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.Type;
import org.objectweb.asm.tree.AbstractInsnNode;
import org.objectweb.asm.tree.ClassNode;
import org.objectweb.asm.tree.InsnNode;
import org.objectweb.asm.tree.InvokeDynamicInsnNode;
import org.objectweb.asm.tree.MethodInsnNode;
import org.objectweb.asm.tree.MethodNode;
import org.objectweb.asm.tree.VarInsnNode;

/**
 * Keeps one lambda class per lambda expression when a method's code is doubled, for the fast path
 * or for sampled invocations ({@link MethodCopies}). Each {@code invokedynamic} instruction is a
 * call site of its own, and {@code LambdaMetafactory} spins a class for each site it links; a
 * doubled method's lambdas would get two classes, one per copy. That is visible to the program (a
 * non-capturing lambda is one object per site, now two) and costly: those classes flow into the
 * JDK's shared code, and a call site there that saw two receiver classes, one per lambda, now sees
 * three or four. C2 inlines a call site with at most two and makes the rest virtual calls; on the
 * example shop, the second {@code Scored::score} class made {@code Comparator.comparingLong}'s key
 * call megamorphic for every caller, {@code Carts}' included.
 *
 * <p>So before a method is doubled, each of its lambda sites moves into a small private static
 * method of the class that holds only that {@code invokedynamic}, and the method calls that
 * instead, from both copies: one site, one class, as javac compiled it. The JIT inlines the small
 * method. Only while a class is being defined: a retransformation may not add methods, and then the
 * method keeps its doubled sites.
 */
final class LambdaSites {
  private static final String METAFACTORY = "java/lang/invoke/LambdaMetafactory";
  private static final String PREFIX = "whyslow$lambda$";

  /** Interfaces may hold private methods from class file version 53 (Java 9). */
  private static final int PRIVATE_INTERFACE_METHODS = Opcodes.V9;

  private final ClassNode owner;
  private final Set<String> names = new HashSet<>();
  private final List<MethodNode> added = new ArrayList<>();

  private LambdaSites(ClassNode owner) {
    this.owner = owner;
    for (MethodNode method : owner.methods) {
      names.add(method.name);
    }
  }

  /**
   * For a class being defined, or {@code null} when this class cannot take new private static
   * methods (an interface before Java 9).
   */
  static LambdaSites forClass(ClassNode owner) {
    boolean isInterface = (owner.access & Opcodes.ACC_INTERFACE) != 0;
    if (isInterface && (owner.version & 0xFFFF) < PRIVATE_INTERFACE_METHODS) {
      return null;
    }
    return new LambdaSites(owner);
  }

  /** Whether the method creates lambdas or method references through {@code invokedynamic}. */
  static boolean createsLambdas(MethodNode method) {
    for (AbstractInsnNode insn : method.instructions) {
      if (isLambdaSite(insn)) {
        return true;
      }
    }
    return false;
  }

  /**
   * Replaces each lambda site in the method with a call to a new method holding that site; the
   * instruction count and order stay as they were, so site keys (by instruction ordinal) do not
   * change.
   */
  void hoist(MethodNode method) {
    for (AbstractInsnNode insn : method.instructions.toArray()) {
      if (isLambdaSite(insn)) {
        InvokeDynamicInsnNode site = (InvokeDynamicInsnNode) insn;
        MethodNode holder = holderOf(site);
        boolean isInterface = (owner.access & Opcodes.ACC_INTERFACE) != 0;
        method.instructions.set(
            site,
            new MethodInsnNode(
                Opcodes.INVOKESTATIC, owner.name, holder.name, holder.desc, isInterface));
      }
    }
  }

  /** Adds the new methods to the class; call once, after every method has been planned. */
  void addMethods() {
    owner.methods.addAll(added);
  }

  private static boolean isLambdaSite(AbstractInsnNode insn) {
    return insn instanceof InvokeDynamicInsnNode indy && METAFACTORY.equals(indy.bsm.getOwner());
  }

  /** {@code private static synthetic R whyslow$lambda$N(args) { return indy(args); }} */
  private MethodNode holderOf(InvokeDynamicInsnNode site) {
    int n = added.size();
    String name;
    do {
      name = PREFIX + n++;
    } while (!names.add(name));
    MethodNode holder =
        new MethodNode(
            Opcodes.ACC_PRIVATE | Opcodes.ACC_STATIC | Opcodes.ACC_SYNTHETIC,
            name,
            site.desc,
            null,
            null);
    int slot = 0;
    for (Type arg : Type.getArgumentTypes(site.desc)) {
      holder.instructions.add(new VarInsnNode(arg.getOpcode(Opcodes.ILOAD), slot));
      slot += arg.getSize();
    }
    Type result = Type.getReturnType(site.desc);
    holder.instructions.add(
        new InvokeDynamicInsnNode(site.name, site.desc, site.bsm, site.bsmArgs));
    holder.instructions.add(new InsnNode(result.getOpcode(Opcodes.IRETURN)));
    holder.maxLocals = slot;
    holder.maxStack = Math.max(slot, result.getSize());
    added.add(holder);
    return holder;
  }
}
