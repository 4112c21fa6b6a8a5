package dev.whyslow.agent.instrument;

import dev.whyslow.agent.bootstrap.StateCalls;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.objectweb.asm.Handle;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.tree.AbstractInsnNode;
import org.objectweb.asm.tree.ClassNode;
import org.objectweb.asm.tree.FrameNode;
import org.objectweb.asm.tree.InvokeDynamicInsnNode;
import org.objectweb.asm.tree.MethodInsnNode;
import org.objectweb.asm.tree.MethodNode;
import org.objectweb.asm.tree.VarInsnNode;

/**
 * The caller's side of passing the thread state ({@link StateCalls}, {@link StateVariants}): in
 * code that holds the state in a local, a call to a method that will have a variant becomes an
 * {@code invokedynamic} that passes the state along. The callee's class is read from the caller's
 * class loader, as a class file, and judged by the same rule its own transformation applies; a
 * wrong guess only costs the call site its shortcut ({@link StateCalls#link} falls back to the
 * plain call).
 *
 * <p>Only for callees in the caller's own package, where the variant, package-private, is
 * accessible; only in classes of version 51 (Java 7) or later, which may hold {@code
 * invokedynamic}; never in the JDK's classes, where linking a call site could run before {@code
 * java.lang.invoke} is ready.
 */
final class StatePassing {
  /** At most this many class files are read for one caller, so that no class costs much. */
  static final int MAX_CLASS_FILES = 32;

  private static final Handle LINK =
      new Handle(
          Opcodes.H_INVOKESTATIC,
          "dev/whyslow/agent/bootstrap/StateCalls",
          "link",
          "(Ljava/lang/invoke/MethodHandles$Lookup;Ljava/lang/String;"
              + "Ljava/lang/invoke/MethodType;Ljava/lang/String;I)Ljava/lang/invoke/CallSite;",
          false);

  private final String className;
  private final String packagePrefix;
  private final boolean passes;
  private final ClassFiles files;
  private final Map<String, Set<String>> variantsByOwner = new HashMap<>();
  private int filesRead;

  private StatePassing(ClassNode node, boolean passes, ClassFiles files) {
    this.className = node.name;
    this.packagePrefix = node.name.substring(0, node.name.lastIndexOf('/') + 1);
    this.passes = passes;
    this.files = files;
    Set<String> own = StateVariants.of(node);
    variantsByOwner.put(node.name, own);
    files.remember(node.name, own);
  }

  /**
   * For {@code node}'s methods and the calls its code makes, judged before any of its methods
   * change. Its calls pass the state nowhere when the class may not hold {@code invokedynamic}.
   */
  static StatePassing forClass(ClassNode node, ClassFiles files) {
    boolean passes =
        (node.version & 0xFFFF) >= Opcodes.V1_7
            && !DepthCounting.jdk(node.name)
            && (node.access & Opcodes.ACC_MODULE) == 0;
    return new StatePassing(node, passes, files);
  }

  /** Whether {@code own}, a method of this class as javac wrote it, gets a variant. */
  boolean hasVariant(MethodNode own) {
    return variantsByOwner.get(className).contains(own.name + own.desc);
  }

  /** Whether {@code code} makes a call that would pass the state. */
  boolean anyCall(MethodNode code) {
    if (!passes) {
      return false;
    }
    for (AbstractInsnNode insn : code.instructions) {
      if (insn instanceof MethodInsnNode call && passes(call)) {
        return true;
      }
    }
    return false;
  }

  /**
   * Makes each of {@code code}'s calls to a method with a variant pass the state in local {@code
   * state}, which every frame of {@code code} must already have.
   *
   * @return how many calls now pass it
   */
  int rewrite(MethodNode code, int state) {
    if (!passes) {
      return 0;
    }
    List<MethodInsnNode> calls = new ArrayList<>();
    for (AbstractInsnNode insn : code.instructions) {
      if (insn instanceof MethodInsnNode call && passes(call)) {
        calls.add(call);
      }
    }
    for (MethodInsnNode call : calls) {
      boolean virtual = call.getOpcode() == Opcodes.INVOKEVIRTUAL;
      String desc = StateVariants.descriptor(call.desc);
      if (virtual) {
        desc = "(L" + call.owner + ";" + desc.substring(1);
      }
      int kind = virtual ? StateCalls.VIRTUAL : StateCalls.STATIC;
      // stack: [receiver,] args...
      code.instructions.insertBefore(call, new VarInsnNode(Opcodes.ALOAD, state));
      // stack: [receiver,] args..., state
      code.instructions.set(
          call, new InvokeDynamicInsnNode(call.name, desc, LINK, call.owner, kind));
    }
    if (!calls.isEmpty()) {
      code.maxStack++;
    }
    return calls.size();
  }

  /**
   * Gives every frame of {@code code} local {@code state}, a thread state that its code keeps from
   * entry on (the own code of a method with copies, {@link MethodCopies#dispatch}).
   */
  static void keepInFrames(MethodNode code, int state) {
    for (AbstractInsnNode insn : code.instructions) {
      if (insn instanceof FrameNode frame) {
        // Nothing of the code's own lives at or past the slot: it is past every local it had.
        List<Object> locals = MethodRewriter.paddedTo(frame.local, state);
        locals.add(MethodPlanner.STATE);
        frame.local = locals;
      }
    }
  }

  private boolean passes(MethodInsnNode call) {
    int op = call.getOpcode();
    if (call.itf || (op != Opcodes.INVOKESTATIC && op != Opcodes.INVOKEVIRTUAL)) {
      return false;
    }
    Set<String> variants = variantsOf(call.owner);
    return variants.contains(call.name + call.desc);
  }

  private Set<String> variantsOf(String owner) {
    Set<String> known = variantsByOwner.get(owner);
    if (known != null) {
      return known;
    }
    Set<String> variants = Set.of();
    boolean samePackage =
        owner.startsWith(packagePrefix) && owner.indexOf('/', packagePrefix.length()) < 0;
    if (samePackage && filesRead < MAX_CLASS_FILES) {
      filesRead++;
      variants = files.variantsOf(owner);
    }
    variantsByOwner.put(owner, variants);
    return variants;
  }
}
