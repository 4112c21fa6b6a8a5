package dev.whyslow.agent.instrument;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.BitSet;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.objectweb.asm.tree.MethodNode;

/**
 * Natural loops of one method: dominators of the {@link ControlFlowGraph} (Cooper, Harvey and
 * Kennedy's iterative algorithm), back edges {@code u -> h} where {@code h} dominates {@code u},
 * and the loop body of each header. Loop ids are numbered per method in the order of their headers
 * in the code, so they are stable for the same bytecode.
 */
final class LoopAnalysis {
  private final ControlFlowGraph cfg;
  private final List<Loop> loops;

  /** One natural loop: its header block and every block of its body (header included). */
  record Loop(int id, int header, BitSet body, int size) {}

  private LoopAnalysis(ControlFlowGraph cfg, List<Loop> loops) {
    this.cfg = cfg;
    this.loops = loops;
  }

  static LoopAnalysis of(MethodNode method) {
    ControlFlowGraph cfg = ControlFlowGraph.of(method);
    int[] idom = dominators(cfg);
    List<List<Integer>> preds = predecessors(cfg, idom);
    TreeMap<Integer, BitSet> bodies = new TreeMap<>(); // by header block, i.e. by code position
    for (int u = 0; u < cfg.blockCount(); u++) {
      if (idom[u] < 0) {
        continue; // unreachable
      }
      for (int h : cfg.successors(u)) {
        if (dominates(idom, h, u)) {
          BitSet body = bodies.get(h);
          if (body == null) {
            body = new BitSet();
            bodies.put(h, body);
          }
          collectBody(preds, h, u, body);
        }
      }
    }
    List<Loop> loops = new ArrayList<>();
    for (Map.Entry<Integer, BitSet> e : bodies.entrySet()) {
      loops.add(new Loop(loops.size(), e.getKey(), e.getValue(), e.getValue().cardinality()));
    }
    return new LoopAnalysis(cfg, loops);
  }

  List<Loop> loops() {
    return loops;
  }

  /** The block holding the instruction at {@code insnIndex}. */
  int blockOf(int insnIndex) {
    return cfg.blockOf(insnIndex);
  }

  /** The index of the first instruction (usually a label) of the loop's header block. */
  int headerStart(Loop loop) {
    return cfg.start(loop.header());
  }

  /** The innermost loop holding the instruction at {@code insnIndex}, or -1. */
  int loopIdOf(int insnIndex) {
    Loop inner = innermost(cfg.blockOf(insnIndex));
    return inner == null ? -1 : inner.id;
  }

  /**
   * The loop whose next iteration the conditional jump at {@code insnIndex} decides, or -1: the
   * innermost loop holding the jump that one of its successors leaves, or whose header one of its
   * successors is (a back or continue edge).
   */
  int decidedLoop(int insnIndex, int targetIndex) {
    int block = cfg.blockOf(insnIndex);
    int taken = cfg.blockOf(targetIndex);
    int fallThrough = cfg.blockOf(insnIndex + 1);
    Loop best = null;
    for (Loop loop : loops) {
      if (!loop.body.get(block)) {
        continue;
      }
      boolean decides =
          !loop.body.get(taken)
              || !loop.body.get(fallThrough)
              || taken == loop.header
              || fallThrough == loop.header;
      if (decides && (best == null || loop.size < best.size)) {
        best = loop;
      }
    }
    return best == null ? -1 : best.id;
  }

  private Loop innermost(int block) {
    Loop best = null;
    for (Loop loop : loops) {
      if (loop.body.get(block) && (best == null || loop.size < best.size)) {
        best = loop;
      }
    }
    return best;
  }

  /** Immediate dominators; -1 for unreachable blocks, the entry is its own. */
  private static int[] dominators(ControlFlowGraph cfg) {
    int n = cfg.blockCount();
    int[] order = reversePostorder(cfg);
    int[] rank = new int[n];
    Arrays.fill(rank, -1);
    for (int i = 0; i < order.length; i++) {
      rank[order[i]] = i;
    }
    List<List<Integer>> preds = predecessors(cfg, rank);
    int[] idom = new int[n];
    Arrays.fill(idom, -1);
    idom[0] = 0;
    boolean changed = true;
    while (changed) {
      changed = false;
      for (int i = 1; i < order.length; i++) {
        int b = order[i];
        int newIdom = -1;
        for (int p : preds.get(b)) {
          if (idom[p] < 0) {
            continue;
          }
          newIdom = newIdom < 0 ? p : intersect(idom, rank, p, newIdom);
        }
        if (newIdom != idom[b]) {
          idom[b] = newIdom;
          changed = true;
        }
      }
    }
    return idom;
  }

  private static int intersect(int[] idom, int[] rank, int a, int b) {
    while (a != b) {
      while (rank[a] > rank[b]) {
        a = idom[a];
      }
      while (rank[b] > rank[a]) {
        b = idom[b];
      }
    }
    return a;
  }

  private static int[] reversePostorder(ControlFlowGraph cfg) {
    int n = cfg.blockCount();
    boolean[] seen = new boolean[n];
    int[] next = new int[n]; // next successor position to visit, per block on the stack
    int[] post = new int[n];
    int count = 0;
    Deque<Integer> stack = new ArrayDeque<>();
    stack.push(0);
    seen[0] = true;
    while (!stack.isEmpty()) {
      int b = stack.peek();
      int[] succ = cfg.successors(b);
      if (next[b] < succ.length) {
        int s = succ[next[b]++];
        if (!seen[s]) {
          seen[s] = true;
          stack.push(s);
        }
      } else {
        stack.pop();
        post[count++] = b;
      }
    }
    int[] order = new int[count];
    for (int i = 0; i < count; i++) {
      order[i] = post[count - 1 - i];
    }
    return order;
  }

  private static boolean dominates(int[] idom, int a, int b) {
    if (idom[a] < 0) {
      return false;
    }
    int x = b;
    while (true) {
      if (x == a) {
        return true;
      }
      if (x == idom[x]) {
        return false; // reached the entry
      }
      x = idom[x];
    }
  }

  /** Adds to {@code body} the header and every block reaching {@code tail} without the header. */
  private static void collectBody(List<List<Integer>> preds, int header, int tail, BitSet body) {
    body.set(header);
    Deque<Integer> work = new ArrayDeque<>();
    if (!body.get(tail)) {
      body.set(tail);
      work.push(tail);
    }
    while (!work.isEmpty()) {
      int b = work.pop();
      for (int p : preds.get(b)) {
        if (!body.get(p)) {
          body.set(p);
          work.push(p);
        }
      }
    }
  }

  /** Predecessors of each block, counting only edges from blocks with {@code reached[b] >= 0}. */
  private static List<List<Integer>> predecessors(ControlFlowGraph cfg, int[] reached) {
    List<List<Integer>> preds = new ArrayList<>();
    for (int b = 0; b < cfg.blockCount(); b++) {
      preds.add(new ArrayList<>());
    }
    for (int b = 0; b < cfg.blockCount(); b++) {
      if (reached[b] >= 0) {
        for (int s : cfg.successors(b)) {
          preds.get(s).add(b);
        }
      }
    }
    return preds;
  }
}
