package dev.whyslow.agent.instrument;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.Collection;
import java.util.List;
import org.objectweb.asm.tree.MethodNode;

/**
 * Where a fast-path check pays: the instructions inside a loop that holds no other loop but pure
 * ones ({@link PureLoops}). Such a loop's checks run many times per invocation, so both of their
 * sides are taken long before C2 compiles the method. A check anywhere else (the entry, after a
 * call outside such loops, an outer loop's header) runs a few times per invocation: it saves
 * little, and in a copy that runs one invocation in 20 its slow side has rarely been taken when C2
 * compiles the copy, which prunes it and then deoptimises the copy at the first sample that falls
 * there (two or three times per {@code CpuWorkload} run, inside its measured window;
 * bench/README.md). There {@link FastPathPlan} sends control to the slow copy instead, whose probes
 * keep their check in one method that every site shares.
 */
final class InnermostLoops {
  private InnermostLoops() {}

  /**
   * For each of the method's {@code size} instructions, whether it lies in an innermost loop.
   *
   * @param pure the method's pure loops, which do not make a loop around them an outer one
   */
  static boolean[] cover(MethodNode method, int size, Collection<PureLoops.PureLoop> pure) {
    LoopAnalysis analysis = LoopAnalysis.of(method);
    BitSet pureHeaders = new BitSet();
    for (PureLoops.PureLoop loop : pure) {
      pureHeaders.set(analysis.blockOf(loop.header()));
    }
    List<LoopAnalysis.Loop> counted = new ArrayList<>();
    for (LoopAnalysis.Loop loop : analysis.loops()) {
      if (!pureHeaders.get(loop.header())) {
        counted.add(loop);
      }
    }
    BitSet innermostBlocks = new BitSet();
    for (LoopAnalysis.Loop loop : counted) {
      if (holdsNoOther(loop, counted)) {
        innermostBlocks.or(loop.body());
      }
    }
    boolean[] cover = new boolean[size];
    for (int i = 0; i < size; i++) {
      cover[i] = innermostBlocks.get(analysis.blockOf(i));
    }
    return cover;
  }

  /** Natural loops with different headers are nested or apart: another header inside nests. */
  private static boolean holdsNoOther(LoopAnalysis.Loop loop, List<LoopAnalysis.Loop> loops) {
    for (LoopAnalysis.Loop other : loops) {
      if (other != loop && loop.body().get(other.header())) {
        return false;
      }
    }
    return true;
  }
}
