package dev.whyslow.agent.instrument;

import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.objectweb.asm.tree.AbstractInsnNode;

/**
 * Where control crosses between a method's fast and slow copies, once the verifier's frames are
 * known: each boundary and each call after which a check may send control to the other copy, with
 * the region's weight and the frame the jump target declares. A call after which the frame holds an
 * object under construction is not a crossing; the probes it reaches keep their check in the fast
 * copy too ({@link FastPathPlan}). Nor does a boundary whose region can evaluate one probe at most
 * get a check, only the slow copy's jump back ({@link #MIN_WEIGHT_AT_BOUNDARY}).
 */
final class FastPathRoutes {
  /**
   * Fewest probes a region after a call must be able to evaluate for a check there: the check costs
   * one compare, so with fewer it saves nothing and its probes keep their own checks.
   */
  static final int MIN_WEIGHT_AFTER_CALL = 2;

  /**
   * Fewest probes a region must be able to evaluate for a check at its boundary (the start and
   * handlers always have one). With fewer the check saves no compare, and its jump into the slow
   * copy's loop made the loop nest irreducible, which C2 leaves unoptimised: a matrix product's
   * copy took 2.4 times its own code's time, 1.6 times without (bench/README.md, twenty-fifth
   * session). There the slow copy only jumps back, and the region's probes keep their checks in the
   * fast copy.
   */
  static final int MIN_WEIGHT_AT_BOUNDARY = 2;

  /**
   * A crossing: the region's weight and the frame at it; {@code checked} false where only the slow
   * copy jumps, back to the fast one.
   */
  record Crossing(int weight, ProbeFrames.Frame frame, boolean checked) {
    Crossing(int weight, ProbeFrames.Frame frame) {
      this(weight, frame, true);
    }
  }

  private final Map<AbstractInsnNode, Crossing> boundaries = new IdentityHashMap<>();
  private final Map<AbstractInsnNode, Crossing> calls = new IdentityHashMap<>();
  private FastPathPlan plan;
  private final Set<AbstractInsnNode> checkedInFast =
      Collections.newSetFromMap(new IdentityHashMap<>());

  private FastPathRoutes() {}

  /**
   * The crossings of {@code plan}, or {@code null} for no fast path (no plan, or a boundary whose
   * frame holds an object under construction, across which no jump between copies verifies).
   */
  static FastPathRoutes of(
      FastPathPlan plan, ProbeFrames frames, List<AbstractInsnNode> methodCalls) {
    if (plan == null || frames == ProbeFrames.NONE) {
      return null;
    }
    FastPathRoutes routes = new FastPathRoutes();
    routes.plan = plan;
    boolean loopCrossing = plan.hasPureLoops();
    for (Map.Entry<AbstractInsnNode, Integer> e : plan.boundaries().entrySet()) {
      ProbeFrames.Frame frame = frames.before(e.getKey());
      if (frame == null) {
        continue; // unreachable code: nothing runs there
      }
      if (frame.holdsNewObject()) {
        return null;
      }
      boolean start = e.getKey() == plan.start();
      if (!start && e.getValue() == 0) {
        continue; // nothing to save: no probe before the next boundary
      }
      List<AbstractInsnNode> region = plan.reachedFrom(e.getKey());
      if (!start && region != null && e.getValue() < MIN_WEIGHT_AT_BOUNDARY) {
        routes.boundaries.put(e.getKey(), new Crossing(e.getValue(), frame, false));
        routes.checkedInFast.addAll(region);
        continue;
      }
      loopCrossing |= !start;
      routes.boundaries.put(e.getKey(), new Crossing(e.getValue(), frame));
    }
    if (!loopCrossing || !routes.boundaries.containsKey(plan.start())) {
      return null;
    }
    for (AbstractInsnNode call : methodCalls) {
      ProbeFrames.Frame frame = frames.after(call);
      if (frame != null
          && !frame.holdsNewObject()
          && plan.weightAfter(call) >= MIN_WEIGHT_AFTER_CALL) {
        routes.calls.put(call, new Crossing(plan.weightAfter(call), frame));
      } else {
        routes.checkedInFast.addAll(plan.reachedAfter(call));
      }
    }
    return routes;
  }

  /** Gives both copies their entry labels, one per crossing. */
  void enter(CodeCopy slow, CodeCopy fast) {
    for (AbstractInsnNode key : boundaries.keySet()) {
      slow.addEntry(key, false);
      fast.addEntry(key, false);
    }
    for (AbstractInsnNode key : calls.keySet()) {
      slow.addEntry(key, true);
      fast.addEntry(key, true);
    }
  }

  /** The check before the original's instruction {@code first}, or {@code null}. */
  Crossing atBoundary(AbstractInsnNode first) {
    return boundaries.get(first);
  }

  Map<AbstractInsnNode, Crossing> boundaries() {
    return boundaries;
  }

  /** The check after {@code call}, or {@code null} when it is not a crossing. */
  Crossing afterCall(AbstractInsnNode call) {
    return calls.get(call);
  }

  /** The pure loop the original's branch {@code insn} decides, or {@code null}. */
  PureLoops.PureLoop pureLoop(AbstractInsnNode insn) {
    return plan.pureLoop(insn);
  }

  /** Whether the probe at the original's {@code insn} keeps its check in the fast copy. */
  boolean checkedInFast(AbstractInsnNode insn) {
    return checkedInFast.contains(insn);
  }
}
