package dev.whyslow.agent.units.training;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Chooses the guard methods (PerfGuard §3, §4.4). Contexts are (method, relative depth) pairs; a
 * context's candidate set is the types whose units entered it. Types are served round-robin, one
 * guard per round, up to {@code maxGuardsPerType} rounds and {@code maxGuards} guards in all: for a
 * type with units not yet covered, the best context among those units is, in order, the one in the
 * fewest types (so it names the type alone when possible), the one in most of the uncovered units,
 * in the method shared by the fewest types, the shallowest, then by name. A unit counts as covered
 * once it enters a guard at a context that names its type alone (or the best context it had).
 *
 * <p>Entry points with one type get no guard: the entry point names the type, so a guard would add
 * cost and no information. No guard goes where every type of the entry point meets (an early common
 * method): all candidates would tie there, which changes no inference.
 */
final class GuardSelector {
  /** Guards and what each type is told apart by. */
  record Selection(
      int[] guardMethods, long[][] rows, List<List<Long>> chosenByType, long[] signatureByType) {}

  private final List<DistinctTrace> traces;
  private final int[] typeOf;
  private final String[] entryOfType;
  private final MethodNames names;
  private final Map<Long, Long> contextTypes = new HashMap<>();
  private final Map<Integer, Long> methodTypes = new HashMap<>();

  GuardSelector(List<DistinctTrace> traces, int[] typeOf, String[] entryOfType, MethodNames names) {
    this.traces = traces;
    this.typeOf = typeOf;
    this.entryOfType = entryOfType;
    this.names = names;
    for (int i = 0; i < traces.size(); i++) {
      if (typeOf[i] < 0) {
        continue;
      }
      long bit = 1L << typeOf[i];
      for (long c : traces.get(i).contexts) {
        contextTypes.merge(c, bit, (a, b) -> a | b);
        methodTypes.merge(DistinctTrace.methodOf(c), bit, (a, b) -> a | b);
      }
    }
  }

  /** The types a context was seen in (0 if never). */
  long typesOf(long context) {
    return contextTypes.getOrDefault(context, 0L);
  }

  Selection select(TrainingSettings settings) {
    int typeCount = entryOfType.length;
    long[] entryTypes = new long[typeCount];
    for (int t = 0; t < typeCount; t++) {
      for (int u = 0; u < typeCount; u++) {
        if (entryOfType[t].equals(entryOfType[u])) {
          entryTypes[t] |= 1L << u;
        }
      }
    }
    Set<Integer> guards = new LinkedHashSet<>();
    List<List<Long>> chosen = new ArrayList<>();
    boolean[] covered = new boolean[traces.size()];
    for (int t = 0; t < typeCount; t++) {
      chosen.add(new ArrayList<>());
    }
    for (int round = 0; round < settings.maxGuardsPerType(); round++) {
      for (int t = 0; t < typeCount; t++) {
        if (Long.bitCount(entryTypes[t]) < 2 || guards.size() >= settings.maxGuards()) {
          continue;
        }
        markCovered(t, guards, covered);
        long best = bestContext(t, entryTypes[t], covered);
        if (best < 0) {
          continue;
        }
        guards.add(DistinctTrace.methodOf(best));
        chosen.get(t).add(best);
        for (int i = 0; i < traces.size(); i++) {
          if (typeOf[i] == t && traces.get(i).hasContext(best)) {
            covered[i] = true;
          }
        }
      }
    }
    long[] signature = new long[typeCount];
    boolean[] none = new boolean[traces.size()];
    for (int t = 0; t < typeCount; t++) {
      signature[t] =
          chosen.get(t).isEmpty() ? bestContext(t, entryTypes[t], none) : chosen.get(t).get(0);
    }
    List<Integer> ordered = new ArrayList<>(guards);
    ordered.sort(MethodNames.byName(names));
    int[] guardMethods = new int[ordered.size()];
    long[][] rows = new long[ordered.size()][];
    for (int g = 0; g < guardMethods.length; g++) {
      guardMethods[g] = ordered.get(g);
      rows[g] = rowOf(ordered.get(g), settings.maxDepth());
    }
    return new Selection(guardMethods, rows, chosen, signature);
  }

  /**
   * Marks type {@code t}'s units that already enter a guard at a context naming {@code t} alone.
   */
  private void markCovered(int t, Set<Integer> guards, boolean[] covered) {
    long bit = 1L << t;
    for (int i = 0; i < traces.size(); i++) {
      if (typeOf[i] != t || covered[i]) {
        continue;
      }
      for (long c : traces.get(i).contexts) {
        if (guards.contains(DistinctTrace.methodOf(c)) && typesOf(c) == bit) {
          covered[i] = true;
          break;
        }
      }
    }
  }

  /** The best context among type {@code t}'s uncovered units, or -1 if none tells types apart. */
  private long bestContext(int t, long entryTypes, boolean[] covered) {
    Map<Long, Long> weightOf = new HashMap<>();
    for (int i = 0; i < traces.size(); i++) {
      if (typeOf[i] == t && !covered[i]) {
        long w = traces.get(i).weight;
        for (long c : traces.get(i).contexts) {
          weightOf.merge(c, w, Long::sum);
        }
      }
    }
    long best = -1;
    for (Map.Entry<Long, Long> e : weightOf.entrySet()) {
      long c = e.getKey();
      if ((typesOf(c) & entryTypes) == entryTypes) {
        continue; // every type of this entry point passes here: no information
      }
      if (best < 0 || compare(c, e.getValue(), best, weightOf.get(best)) < 0) {
        best = c;
      }
    }
    return best;
  }

  private int compare(long a, long weightA, long b, long weightB) {
    int c = Integer.compare(Long.bitCount(typesOf(a)), Long.bitCount(typesOf(b)));
    if (c == 0) {
      c = Long.compare(weightB, weightA);
    }
    if (c == 0) {
      c =
          Integer.compare(
              Long.bitCount(methodTypes.get(DistinctTrace.methodOf(a))),
              Long.bitCount(methodTypes.get(DistinctTrace.methodOf(b))));
    }
    if (c == 0) {
      c = Integer.compare(DistinctTrace.depthOf(a), DistinctTrace.depthOf(b));
    }
    if (c == 0) {
      c =
          names
              .nameOf(DistinctTrace.methodOf(a))
              .compareTo(names.nameOf(DistinctTrace.methodOf(b)));
    }
    return c != 0 ? c : Long.compare(a, b);
  }

  private long[] rowOf(int method, int maxDepth) {
    long[] row = new long[maxDepth + 1];
    int used = 0;
    for (int d = 1; d <= maxDepth; d++) {
      row[d] = typesOf(DistinctTrace.context(method, d));
      if (row[d] != 0) {
        used = d + 1;
      }
    }
    return java.util.Arrays.copyOf(row, used);
  }
}
