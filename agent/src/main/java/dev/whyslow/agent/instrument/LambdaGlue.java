package dev.whyslow.agent.instrument;

import static org.objectweb.asm.Opcodes.ACC_SYNTHETIC;

import org.objectweb.asm.tree.MethodNode;

/**
 * Lambda bodies that are glue: a straight line of a few instructions, such as the key extractor
 * {@code r -> r.product().id()} of a comparator. Such a body gets neither a return probe nor a
 * depth count, so it runs its own code in every invocation, as a trivial accessor does.
 *
 * <p>Why: a lambda is called through its interface, most often by the JDK (a sort's comparator, a
 * stream's mapper), so the JIT cannot share its caller's thread-state lookup with it the way it
 * does for instrumented methods inlined into instrumented callers, and every call paid the lookup
 * and the entry's choice in full (in the example shop, two such key extractors were 200,000 of some
 * 400,000 instrumented entries per round and a point of its in-unit cost; bench/LATENCY.md). What
 * is lost is little: its value goes back to whoever called the interface, usually the JDK, where no
 * branch of the application reads it; the methods it calls keep their own probes and depth count;
 * and a straight line has no branch of its own. A lambda that branches or loops is instrumented as
 * any method.
 */
final class LambdaGlue {
  private LambdaGlue() {}

  /** Whether {@code method} is a compiler-generated lambda body that is a short straight line. */
  static boolean isGlue(MethodNode method) {
    if ((method.access & ACC_SYNTHETIC) == 0 || !method.name.startsWith("lambda$")) {
      return false;
    }
    return method.tryCatchBlocks.isEmpty() && MethodPlanner.isStraightLine(method, true);
  }
}
