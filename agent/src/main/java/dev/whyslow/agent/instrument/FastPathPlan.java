package dev.whyslow.agent.instrument;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.BitSet;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.tree.AbstractInsnNode;
import org.objectweb.asm.tree.InsnList;
import org.objectweb.asm.tree.InvokeDynamicInsnNode;
import org.objectweb.asm.tree.JumpInsnNode;
import org.objectweb.asm.tree.LabelNode;
import org.objectweb.asm.tree.LookupSwitchInsnNode;
import org.objectweb.asm.tree.MethodInsnNode;
import org.objectweb.asm.tree.MethodNode;
import org.objectweb.asm.tree.TableSwitchInsnNode;
import org.objectweb.asm.tree.TryCatchBlockNode;

/**
 * The regions of one method for CBI's fast path (Liblit et al.'s sampling transformation, which
 * Song &amp; Lu's overheads rest on). A region starts at a <em>boundary</em> — the method entry, an
 * exception handler, the target of every retreating edge of a depth-first search (so every cycle
 * crosses one), or the point right after a call — and runs until the next one. Its <em>weight</em>
 * is the largest number of probe evaluations on any path through it. At a boundary the method
 * checks its countdown once: when it is above the weight, no evaluation in the region can bring it
 * to zero, so the region runs in a copy whose probes are bare decrements (the fast path); otherwise
 * it runs in the copy with a check per probe (the slow path). Both copies decrement once per
 * evaluation, so which evaluation is recorded is exactly what it would be without the fast path.
 *
 * <p>A call ends its region, since the callee moves the countdown; the method reloads it and checks
 * again. Where the verifier would not let control cross between the copies right after a call (an
 * object under construction, {@code new X(f())}, is on the stack: each copy has its own {@code
 * new}), the call is left unguarded and the probes it reaches before the next boundary keep their
 * own check in the fast copy too.
 */
final class FastPathPlan {
  /** Methods with more instructions than this are left to the checked probes alone. */
  static final int MAX_INSTRUCTIONS = 8_000;

  private static final int[] NONE = {};

  /** The region weight of each boundary, by its first real instruction. */
  private final Map<AbstractInsnNode, Integer> boundaries;

  /** The first boundary in code order: the method's first real instruction. */
  private final AbstractInsnNode start;

  /** The weight of the region after each call, by the call instruction. */
  private final Map<AbstractInsnNode, Integer> afterCalls;

  /** The probe instructions each call reaches before the next boundary or call. */
  private final Map<AbstractInsnNode, List<AbstractInsnNode>> reachedAfterCall;

  /** The loops settled at their exit ({@link PureLoops}), by their deciding branch. */
  private final Map<AbstractInsnNode, PureLoops.PureLoop> pureLoops;

  /** The probe instructions each boundary's region holds, but not a handler's or the start's. */
  private final Map<AbstractInsnNode, List<AbstractInsnNode>> reachedFromBoundary;

  private FastPathPlan(
      AbstractInsnNode start,
      Map<AbstractInsnNode, Integer> boundaries,
      Map<AbstractInsnNode, Integer> afterCalls,
      Map<AbstractInsnNode, List<AbstractInsnNode>> reachedAfterCall,
      Map<AbstractInsnNode, PureLoops.PureLoop> pureLoops,
      Map<AbstractInsnNode, List<AbstractInsnNode>> reachedFromBoundary) {
    this.start = start;
    this.boundaries = boundaries;
    this.afterCalls = afterCalls;
    this.reachedAfterCall = reachedAfterCall;
    this.pureLoops = pureLoops;
    this.reachedFromBoundary = reachedFromBoundary;
  }

  /**
   * The plan for a method with these probe points, or {@code null} when it should not get a fast
   * path: no loop holds a probe (a straight-line method saves little and would only grow past the
   * JIT's inlining limits), every loop that holds one calls out (see {@link
   * #aCallFreeLoopHoldsASite}) or is settled at its exit ({@link PureLoops}) in a method that calls
   * out, it is a constructor, it is too large, or its control flow cannot be followed.
   */
  static FastPathPlan of(MethodNode method, List<ProbePoint> points) {
    if (points.isEmpty() || method.name.equals("<init>")) {
      return null;
    }
    InsnList insns = method.instructions;
    int n = insns.size();
    if (n > MAX_INSTRUCTIONS) {
      return null;
    }
    AbstractInsnNode[] code = insns.toArray();
    Map<AbstractInsnNode, Integer> index = new IdentityHashMap<>();
    for (int i = 0; i < n; i++) {
      index.put(code[i], i);
    }
    int[] sites = new int[n];
    for (ProbePoint point : points) {
      sites[index.get(point.insn())]++;
    }
    int[][] successors = new int[n][];
    for (int i = 0; i < n; i++) {
      successors[i] = successors(code, i, index);
      if (successors[i] == null) {
        return null; // jsr/ret
      }
    }
    boolean[] boundary = new boolean[n];
    boundary[0] = true;
    boolean[] handler = new boolean[n];
    for (TryCatchBlockNode tcb : method.tryCatchBlocks) {
      boundary[index.get(tcb.handler)] = true;
      handler[index.get(tcb.handler)] = true;
    }
    // A pure loop's branch weighs nothing (it settles at the exit), its header cuts the cycle
    // without a check, and what follows its exit is a region of its own.
    boolean[] silent = new boolean[n];
    Map<AbstractInsnNode, PureLoops.PureLoop> pureLoops = new IdentityHashMap<>();
    for (PureLoops.PureLoop pure : PureLoops.find(method, code, successors, sites)) {
      sites[pure.branch()] = 0;
      boundary[pure.header()] = true;
      silent[pure.header()] = true;
      boundary[pure.exit()] = true;
      pureLoops.put(code[pure.branch()], pure);
    }
    boolean loops = markRetreatingTargets(successors, boundary);
    boolean checkedLoop =
        loops
            && anyLoopHoldsASite(successors, boundary, sites)
            && aCallFreeLoopHoldsASite(method, code, sites);
    if (!checkedLoop && (pureLoops.isEmpty() || callsOut(code))) {
      // Settled loops alone pay for the doubled code only where no call ends a region: in a
      // method that calls out, each call adds a check and a crossing, and a short settled loop
      // (ProductPage's ratings) saves less than that costs (bench/LATENCY.md, fifteenth session).
      return null;
    }
    int[] weight = weights(code, successors, boundary, sites);
    if (weight == null) {
      return null;
    }
    // Identity maps, not HashMap, for the reason given in CodeCopy.cloneOf.
    AbstractInsnNode start = null;
    Map<AbstractInsnNode, Integer> boundaries = new IdentityHashMap<>();
    Map<AbstractInsnNode, List<AbstractInsnNode>> reachedFrom = new IdentityHashMap<>();
    Set<AbstractInsnNode> keepsCheck = Collections.newSetFromMap(new IdentityHashMap<>());
    for (int i = 0; i < n; i++) {
      if (boundary[i] && (!silent[i] || i == 0)) {
        AbstractInsnNode first = firstReal(code, i);
        if (first != null) {
          if (start == null) {
            start = first;
          }
          boundaries.merge(first, weight[i], Math::max);
          if (i == 0 || handler[i]) {
            keepsCheck.add(first);
          }
          reachedFrom
              .computeIfAbsent(first, k -> new ArrayList<>())
              .addAll(sitesInRegion(code, successors, boundary, sites, i));
        }
      }
    }
    for (AbstractInsnNode first : keepsCheck) {
      reachedFrom.remove(first);
    }
    Map<AbstractInsnNode, Integer> afterCalls = new IdentityHashMap<>();
    Map<AbstractInsnNode, List<AbstractInsnNode>> reached = new IdentityHashMap<>();
    for (int i = 0; i < n; i++) {
      if (isCall(code[i]) && i + 1 < n) {
        afterCalls.put(code[i], weight[i + 1]);
        reached.put(code[i], sitesReached(code, successors, boundary, sites, i + 1));
      }
    }
    return new FastPathPlan(start, boundaries, afterCalls, reached, pureLoops, reachedFrom);
  }

  /** The method's first real instruction, where its entry region starts. */
  AbstractInsnNode start() {
    return start;
  }

  /** The boundaries: first real instruction of each region start, with its region's weight. */
  Map<AbstractInsnNode, Integer> boundaries() {
    return boundaries;
  }

  /** The weight of the region after {@code call}. */
  int weightAfter(AbstractInsnNode call) {
    return afterCalls.getOrDefault(call, 0);
  }

  /** The probe instructions {@code call} reaches before the next boundary or call. */
  List<AbstractInsnNode> reachedAfter(AbstractInsnNode call) {
    return reachedAfterCall.getOrDefault(call, List.of());
  }

  /**
   * The probe instructions the region at boundary {@code first} holds, or {@code null} for the
   * start and handlers, which always keep their check.
   */
  List<AbstractInsnNode> reachedFrom(AbstractInsnNode first) {
    return reachedFromBoundary.get(first);
  }

  /** The pure loop {@code branch} decides, or {@code null}. */
  PureLoops.PureLoop pureLoop(AbstractInsnNode branch) {
    return pureLoops.get(branch);
  }

  boolean hasPureLoops() {
    return !pureLoops.isEmpty();
  }

  private static boolean callsOut(AbstractInsnNode[] code) {
    for (AbstractInsnNode insn : code) {
      if (isCall(insn)) {
        return true;
      }
    }
    return false;
  }

  static boolean isCall(AbstractInsnNode insn) {
    return insn instanceof MethodInsnNode || insn instanceof InvokeDynamicInsnNode;
  }

  /** Normal-flow successors of instruction {@code i}; {@code null} for subroutines. */
  private static int[] successors(
      AbstractInsnNode[] code, int i, Map<AbstractInsnNode, Integer> index) {
    AbstractInsnNode insn = code[i];
    int op = insn.getOpcode();
    boolean hasNext = i + 1 < code.length;
    if (op == Opcodes.JSR || op == Opcodes.RET) {
      return null;
    }
    if (insn instanceof JumpInsnNode jump) {
      int target = index.get(jump.label);
      return op == Opcodes.GOTO || !hasNext ? new int[] {target} : new int[] {target, i + 1};
    }
    if (insn instanceof TableSwitchInsnNode table) {
      return targets(table.labels, table.dflt, index);
    }
    if (insn instanceof LookupSwitchInsnNode lookup) {
      return targets(lookup.labels, lookup.dflt, index);
    }
    if ((op >= Opcodes.IRETURN && op <= Opcodes.RETURN) || op == Opcodes.ATHROW || !hasNext) {
      return new int[0];
    }
    return new int[] {i + 1};
  }

  private static int[] targets(
      List<LabelNode> labels, LabelNode dflt, Map<AbstractInsnNode, Integer> index) {
    int[] out = new int[labels.size() + 1];
    out[0] = index.get(dflt);
    for (int k = 0; k < labels.size(); k++) {
      out[k + 1] = index.get(labels.get(k));
    }
    return out;
  }

  /**
   * Marks the target of every retreating edge of a depth-first search from every region start as a
   * boundary; any cycle has one. Returns whether there was any.
   */
  private static boolean markRetreatingTargets(int[][] successors, boolean[] boundary) {
    int n = successors.length;
    byte[] color = new byte[n]; // 0 unseen, 1 on the stack, 2 done
    int[] next = new int[n];
    int[] stack = new int[n];
    boolean any = false;
    for (int root = 0; root < n; root++) {
      if (!boundary[root] || color[root] != 0) {
        continue;
      }
      int top = 0;
      stack[0] = root;
      color[root] = 1;
      while (top >= 0) {
        int v = stack[top];
        if (next[v] < successors[v].length) {
          int w = successors[v][next[v]++];
          if (color[w] == 0) {
            color[w] = 1;
            stack[++top] = w;
          } else if (color[w] == 1) {
            boundary[w] = true;
            any = true;
          }
        } else {
          color[v] = 2;
          top--;
        }
      }
    }
    return any;
  }

  /**
   * Whether some loop holds a probe and calls nothing. Where every such loop calls out on each
   * iteration, the fast path saves a compare or two beside a call and costs the checks and copies
   * around it: {@code CpuWorkload}'s word count, a JDK call per iteration, cost +11 to +14 % with
   * it and +1 to +4 % with checked probes only.
   */
  private static boolean aCallFreeLoopHoldsASite(
      MethodNode method, AbstractInsnNode[] code, int[] sites) {
    LoopAnalysis loops = LoopAnalysis.of(method);
    for (LoopAnalysis.Loop loop : loops.loops()) {
      boolean site = false;
      boolean call = false;
      for (int i = 0; i < code.length && !call; i++) {
        if (loop.body().get(loops.blockOf(i))) {
          site |= sites[i] > 0;
          call |= isCall(code[i]);
        }
      }
      if (site && !call) {
        return true;
      }
    }
    return false;
  }

  /**
   * Whether some probe lies on a cycle: only then does a check per region save checks per
   * evaluation in proportion to the work done.
   */
  private static boolean anyLoopHoldsASite(int[][] successors, boolean[] boundary, int[] sites) {
    // Generous: a site reachable from a boundary other than the entry without crossing another.
    int n = successors.length;
    boolean[] seen = new boolean[n];
    int[] work = new int[n];
    for (int b = 1; b < n; b++) {
      if (!boundary[b]) {
        continue;
      }
      int top = 0;
      work[0] = b;
      Arrays.fill(seen, false);
      seen[b] = true;
      while (top >= 0) {
        int v = work[top--];
        if (sites[v] > 0) {
          return true;
        }
        for (int w : successors[v]) {
          if (!seen[w] && !boundary[w]) {
            seen[w] = true;
            work[++top] = w;
          }
        }
      }
    }
    return false;
  }

  /**
   * The largest number of evaluations on a path from each instruction to the end of its region (an
   * edge into a boundary, a call, a return or a throw), or {@code null} if the cut graph still has
   * a cycle (which the retreating-edge targets rule out; kept as a guard).
   */
  private static int[] weights(
      AbstractInsnNode[] code, int[][] successors, boolean[] boundary, int[] sites) {
    int n = successors.length;
    int[] weight = new int[n];
    byte[] color = new byte[n];
    int[] next = new int[n];
    int[] stack = new int[n];
    for (int root = 0; root < n; root++) {
      if (color[root] != 0) {
        continue;
      }
      int top = 0;
      stack[0] = root;
      color[root] = 1;
      while (top >= 0) {
        int v = stack[top];
        int[] succ = isCall(code[v]) ? NONE : successors[v];
        if (next[v] < succ.length) {
          int w = succ[next[v]++];
          if (boundary[w]) {
            continue; // the region ends here
          }
          if (color[w] == 0) {
            color[w] = 1;
            stack[++top] = w;
          } else if (color[w] == 1) {
            return null;
          }
        } else {
          int most = 0;
          for (int w : succ) {
            if (!boundary[w]) {
              most = Math.max(most, weight[w]);
            }
          }
          weight[v] = sites[v] + most;
          color[v] = 2;
          top--;
        }
      }
    }
    return weight;
  }

  /** The probe instructions reachable from {@code from} before a boundary or a call. */
  private static List<AbstractInsnNode> sitesReached(
      AbstractInsnNode[] code, int[][] successors, boolean[] boundary, int[] sites, int from) {
    if (boundary[from]) {
      return new ArrayList<>();
    }
    return sitesInRegion(code, successors, boundary, sites, from);
  }

  /** The probe instructions from {@code from} (a boundary or not) to the next boundary or call. */
  private static List<AbstractInsnNode> sitesInRegion(
      AbstractInsnNode[] code, int[][] successors, boolean[] boundary, int[] sites, int from) {
    List<AbstractInsnNode> out = new ArrayList<>();
    BitSet seen = new BitSet(code.length);
    ArrayDeque<Integer> work = new ArrayDeque<>();
    work.push(from);
    seen.set(from);
    while (!work.isEmpty()) {
      int v = work.pop();
      if (sites[v] > 0) {
        out.add(code[v]);
      }
      if (isCall(code[v])) {
        continue;
      }
      for (int w : successors[v]) {
        if (!boundary[w] && !seen.get(w)) {
          seen.set(w);
          work.push(w);
        }
      }
    }
    return out;
  }

  private static AbstractInsnNode firstReal(AbstractInsnNode[] code, int i) {
    for (int k = i; k < code.length; k++) {
      if (code[k].getOpcode() >= 0) {
        return code[k];
      }
    }
    return null;
  }
}
