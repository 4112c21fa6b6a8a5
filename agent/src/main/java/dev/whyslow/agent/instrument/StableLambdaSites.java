package dev.whyslow.agent.instrument;

import org.objectweb.asm.Handle;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.tree.AbstractInsnNode;
import org.objectweb.asm.tree.ClassNode;
import org.objectweb.asm.tree.InvokeDynamicInsnNode;
import org.objectweb.asm.tree.MethodNode;

/**
 * Points the lambda sites of an instrumented class at {@code StableLambdas}, which links each site
 * once however often the class is retransformed, so the class keeps its lambda classes. Done in
 * every form of the class (as it loads, and at each retransformation) so the first link is kept.
 */
final class StableLambdaSites {
  private static final String METAFACTORY = "java/lang/invoke/LambdaMetafactory";
  private static final String STABLE = "dev/whyslow/agent/bootstrap/StableLambdas";
  private static final String LOOKUP_NAME_TYPE =
      "(Ljava/lang/invoke/MethodHandles$Lookup;Ljava/lang/String;Ljava/lang/invoke/MethodType;"
          + "Ljava/lang/String;";
  private static final String STANDARD =
      LOOKUP_NAME_TYPE
          + "Ljava/lang/invoke/MethodType;Ljava/lang/invoke/MethodHandle;"
          + "Ljava/lang/invoke/MethodType;)Ljava/lang/invoke/CallSite;";
  private static final String ALTERNATE =
      LOOKUP_NAME_TYPE + "[Ljava/lang/Object;)Ljava/lang/invoke/CallSite;";

  private StableLambdaSites() {}

  /** Rewrites every lambda site of {@code node}; returns how many. */
  static int rewrite(ClassNode node) {
    int rewritten = 0;
    for (MethodNode method : node.methods) {
      for (AbstractInsnNode insn = method.instructions.getFirst();
          insn != null;
          insn = insn.getNext()) {
        if (insn instanceof InvokeDynamicInsnNode indy && rewrite(indy)) {
          rewritten++;
        }
      }
    }
    return rewritten;
  }

  private static boolean rewrite(InvokeDynamicInsnNode indy) {
    Handle bsm = indy.bsm;
    if (!bsm.getOwner().equals(METAFACTORY) || bsm.getTag() != Opcodes.H_INVOKESTATIC) {
      return false;
    }
    String descriptor;
    if (bsm.getName().equals("metafactory") && indy.bsmArgs.length == 3) {
      descriptor = STANDARD;
    } else if (bsm.getName().equals("altMetafactory")) {
      descriptor = ALTERNATE;
    } else {
      return false;
    }
    Object[] arguments = new Object[indy.bsmArgs.length + 1];
    arguments[0] = key(indy);
    System.arraycopy(indy.bsmArgs, 0, arguments, 1, indy.bsmArgs.length);
    indy.bsm = new Handle(Opcodes.H_INVOKESTATIC, STABLE, bsm.getName(), descriptor, false);
    indy.bsmArgs = arguments;
    return true;
  }

  /**
   * The site's name, type and arguments: the same in every form of the class, since each form is
   * made from the class file as it loaded, and different for different lambdas.
   */
  private static String key(InvokeDynamicInsnNode indy) {
    // Joined, not appended char by char (MethodRegistry.idOf says why).
    String[] parts = new String[indy.bsmArgs.length + 1];
    parts[0] = indy.name.concat(indy.desc);
    for (int i = 0; i < indy.bsmArgs.length; i++) {
      parts[i + 1] = String.valueOf(indy.bsmArgs[i]);
    }
    return String.join(" ", parts);
  }
}
