package dev.whyslow.agent.instrument;

import org.objectweb.asm.tree.AbstractInsnNode;
import org.objectweb.asm.tree.InvokeDynamicInsnNode;
import org.objectweb.asm.tree.JumpInsnNode;
import org.objectweb.asm.tree.LabelNode;
import org.objectweb.asm.tree.LookupSwitchInsnNode;
import org.objectweb.asm.tree.MethodInsnNode;
import org.objectweb.asm.tree.MethodNode;
import org.objectweb.asm.tree.TableSwitchInsnNode;

/**
 * Which methods count their frame in the per-thread depth that guards infer a unit's type from
 * (DESIGN.md §5). The rule only has to be the same when units are traced in training and when
 * guards infer at run time, and it is: it reads nothing but the method's own bytecode.
 *
 * <p>A short method that calls nothing but the JDK, without a loop or an exception handler, does
 * not count: an accessor such as {@code Catalog.product(int)} (which calls {@code List.get}) runs
 * in a few nanoseconds, and in a unit its depth count (the state fetch, the dispatch to the
 * depth-only copy, two stores) cost as much again, on every call. Such a method neither holds a
 * unit's time by itself nor tells one calling context from another, so it is never a guard; the
 * methods around it still count. A short method that calls the application's code still counts:
 * which callee it calls may be what tells one kind of request from another; a lambda body that is
 * straight-line glue does not ({@link LambdaGlue}): it is called through its interface, and its
 * callees count for it.
 */
final class DepthCounting {
  /** Methods of at most this many bytecode instructions, with no loop or handler, do not count. */
  static final int MAX_UNCOUNTED_INSTRUCTIONS = 15;

  private static final String JAVA_LANG = "java/lang/";

  private DepthCounting() {}

  /** Whether {@code method} counts its frame when it runs inside a unit. */
  static boolean counts(MethodNode method) {
    if (LambdaGlue.isGlue(method)) {
      // Called through its interface, often by the JDK, and straight-line glue (LambdaGlue).
      return false;
    }
    // A handler puts the depth back after an exception thrown through counted callees, and a call
    // outside the JDK may be what tells one calling context from another: Cart.add calling
    // Stock.reserve.
    return !isShort(method) || callsOutsideTheJdk(method);
  }

  /**
   * Whether {@code method} is short: at most {@value #MAX_UNCOUNTED_INSTRUCTIONS} instructions, no
   * loop, no handler. Its invocations are not worth a draw of their own either: its entry follows
   * the thread's last draw ({@code Entries.followingEntry}), whether it counts depth or not.
   */
  static boolean isShort(MethodNode method) {
    if (!method.tryCatchBlocks.isEmpty()) {
      return false;
    }
    int instructions = 0;
    for (AbstractInsnNode insn : method.instructions) {
      if (insn.getOpcode() >= 0 && ++instructions > MAX_UNCOUNTED_INSTRUCTIONS) {
        return false;
      }
    }
    return !jumpsBack(method);
  }

  private static boolean callsOutsideTheJdk(MethodNode method) {
    for (AbstractInsnNode insn : method.instructions) {
      if (insn instanceof MethodInsnNode call && !jdk(call.owner)) {
        return true;
      }
    }
    return false;
  }

  /** Whether {@code owner} is a class of the JDK. */
  static boolean jdk(String owner) {
    return owner.startsWith("java/")
        || owner.startsWith("javax/")
        || owner.startsWith("jdk/")
        || owner.startsWith("sun/")
        || owner.startsWith("com/sun/");
  }

  /**
   * Whether the method calls code that may count depth itself: then it counts depth even without
   * probe points. Calls into {@code java.lang}, which is never instrumented ({@link Scope}), do not
   * count: a method that only makes those, such as a record's constructor calling {@code Object}'s,
   * would pay the state fetch and the depth count for nothing but the rare callback (a {@code
   * toString} through {@code String.valueOf}).
   */
  static boolean callsCountedCode(MethodNode method) {
    for (AbstractInsnNode insn : method.instructions) {
      if (insn instanceof MethodInsnNode call && !call.owner.startsWith(JAVA_LANG)) {
        return true;
      }
      if (insn instanceof InvokeDynamicInsnNode indy
          && !indy.bsm.getOwner().startsWith(JAVA_LANG)) {
        return true;
      }
    }
    return false;
  }

  /** Whether a jump or switch goes back to an instruction at or before itself: a loop. */
  private static boolean jumpsBack(MethodNode method) {
    for (AbstractInsnNode insn : method.instructions) {
      if (insn instanceof JumpInsnNode jump && backwards(method, insn, jump.label)) {
        return true;
      }
      if (insn instanceof TableSwitchInsnNode table
          && (backwards(method, insn, table.dflt) || anyBackwards(method, insn, table.labels))) {
        return true;
      }
      if (insn instanceof LookupSwitchInsnNode lookup
          && (backwards(method, insn, lookup.dflt) || anyBackwards(method, insn, lookup.labels))) {
        return true;
      }
    }
    return false;
  }

  private static boolean anyBackwards(
      MethodNode method, AbstractInsnNode from, Iterable<LabelNode> targets) {
    for (LabelNode target : targets) {
      if (backwards(method, from, target)) {
        return true;
      }
    }
    return false;
  }

  private static boolean backwards(MethodNode method, AbstractInsnNode from, LabelNode to) {
    return method.instructions.indexOf(to) <= method.instructions.indexOf(from);
  }
}
