package dev.whyslow.agent.units.training;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.ToIntFunction;

/**
 * Units with the same entry point, call paths and contexts, counted once: most units of a type have
 * the same tree up to loop counts, so clustering the distinct ones with their counts as weights
 * costs a fraction of clustering every unit and gives the same average linkage.
 */
final class DistinctTrace {
  final String entryPoint;
  final PathSet paths;

  /** The (method, relative depth) contexts its units entered, as {@link #context} keys, sorted. */
  final long[] contexts;

  /** Units it stands for. */
  final long weight;

  private int[][] rankedPaths;
  private long[] rankedContexts;

  private DistinctTrace(String entryPoint, PathSet paths, long[] contexts, long weight) {
    this.entryPoint = entryPoint;
    this.paths = paths;
    this.contexts = contexts;
    this.weight = weight;
  }

  /** Packs a context; depths are below 2^16 (see {@link TrainingSettings#maxDepth}). */
  static long context(int methodId, int depth) {
    return ((long) methodId << 16) | depth;
  }

  static int methodOf(long context) {
    return (int) (context >>> 16);
  }

  static int depthOf(long context) {
    return (int) (context & 0xFFFF);
  }

  /** Identity of a distinct trace while deduplicating (ids, not names: same run, same ids). */
  record Key(String entryPoint, Set<CallPath> paths, List<Long> contexts) {}

  static Key keyOf(
      UnitCallTrace trace, TrainingSettings settings, Map<CallPath, CallPath> interned, int trunk) {
    Set<CallPath> paths = Set.copyOf(PathSet.pathsOf(trace, settings, interned, trunk));
    List<Long> contexts = new ArrayList<>();
    for (long c : contextsOf(trace, settings)) {
      contexts.add(c);
    }
    return new Key(trace.entryPoint(), paths, List.copyOf(contexts));
  }

  static DistinctTrace of(Key key, long weight, ToIntFunction<Integer> rank) {
    List<CallPath> sorted = new ArrayList<>(key.paths());
    int[][] ranked = new int[sorted.size()][];
    for (int i = 0; i < sorted.size(); i++) {
      ranked[i] = ranks(sorted.get(i), rank);
    }
    // Order paths by method names so sums over them (and so merge ties) do not depend on ids.
    Integer[] order = new Integer[sorted.size()];
    for (int i = 0; i < order.length; i++) {
      order[i] = i;
    }
    Arrays.sort(order, (a, b) -> Arrays.compare(ranked[a], ranked[b]));
    List<CallPath> paths = new ArrayList<>(order.length);
    int[][] rankedSorted = new int[order.length][];
    for (int i = 0; i < order.length; i++) {
      paths.add(sorted.get(order[i]));
      rankedSorted[i] = ranked[order[i]];
    }
    long[] contexts = new long[key.contexts().size()];
    long[] rankedContexts = new long[contexts.length];
    for (int i = 0; i < contexts.length; i++) {
      contexts[i] = key.contexts().get(i);
      rankedContexts[i] = context(rank.applyAsInt(methodOf(contexts[i])), depthOf(contexts[i]));
    }
    Arrays.sort(rankedContexts);
    DistinctTrace d = new DistinctTrace(key.entryPoint(), new PathSet(paths), contexts, weight);
    d.rankedPaths = rankedSorted;
    d.rankedContexts = rankedContexts;
    return d;
  }

  /**
   * Orders by entry point, then call paths and contexts by method names: stable across restarts.
   */
  static final Comparator<DistinctTrace> CANONICAL =
      (a, b) -> {
        int c = a.entryPoint.compareTo(b.entryPoint);
        if (c != 0) {
          return c;
        }
        for (int i = 0; i < Math.min(a.rankedPaths.length, b.rankedPaths.length); i++) {
          c = Arrays.compare(a.rankedPaths[i], b.rankedPaths[i]);
          if (c != 0) {
            return c;
          }
        }
        c = Integer.compare(a.rankedPaths.length, b.rankedPaths.length);
        return c != 0 ? c : Arrays.compare(a.rankedContexts, b.rankedContexts);
      };

  boolean hasContext(long context) {
    return Arrays.binarySearch(contexts, context) >= 0;
  }

  /** The distinct (method, depth) entries of a trace, sorted, within the caps. */
  static long[] contextsOf(UnitCallTrace trace, TrainingSettings settings) {
    int[] methods = trace.methodIds();
    int[] depths = trace.relativeDepths();
    int calls = Math.min(methods.length, settings.maxCallsPerTrace());
    long[] all = new long[calls];
    int n = 0;
    for (int i = 0; i < calls; i++) {
      if (methods[i] >= 0 && depths[i] >= 1 && depths[i] <= settings.maxDepth()) {
        all[n++] = context(methods[i], depths[i]);
      }
    }
    Arrays.sort(all, 0, n);
    int distinct = 0;
    for (int i = 0; i < n; i++) {
      if (distinct == 0 || all[i] != all[distinct - 1]) {
        all[distinct++] = all[i];
      }
    }
    return Arrays.copyOf(all, distinct);
  }

  private static int[] ranks(CallPath p, ToIntFunction<Integer> rank) {
    int[] r = new int[p.length()];
    for (int i = 0; i < r.length; i++) {
      r[i] = rank.applyAsInt(p.method(i));
    }
    return r;
  }
}
