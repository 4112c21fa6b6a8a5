package dev.whyslow.agent.units.training;

import dev.whyslow.agent.bootstrap.ContextTable;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * Groups traced units into unit types and picks the guards that tell them apart at run time
 * (PerfGuard §4.3–4.4): identical units are counted once, the most frequent {@code
 * maxDistinctTraces} distinct ones are clustered by average linkage over the call-path distance
 * within each entry point, the rest join their nearest type, and {@link GuardSelector} chooses the
 * guards. Everything is ordered by method names, so the same code and traffic give the same names
 * and table in any order and across restarts.
 */
public final class UnitTypeTrainer {
  private UnitTypeTrainer() {}

  /** Trains on {@code traces}; deterministic for the same traces in any order. */
  public static TrainedUnitTypes train(
      List<UnitCallTrace> traces, MethodNames names, TrainingSettings settings) {
    List<String> notes = new ArrayList<>();
    Map<String, List<UnitCallTrace>> byEntry = new HashMap<>();
    for (UnitCallTrace t : traces) {
      byEntry.computeIfAbsent(t.entryPoint(), k -> new ArrayList<>()).add(t);
    }
    Map<String, Integer> trunks = new HashMap<>();
    byEntry.forEach((entry, ts) -> trunks.put(entry, PathSet.commonTrunk(ts, settings)));
    List<DistinctTrace> distinct = deduplicate(traces, names, settings, trunks);
    // Comparators here are written out, not built with Comparator.comparing*: the key calls inside
    // those JDK lambdas are shared with the application's sorts, and each key class the agent adds
    // there can make them megamorphic for the service (bench/README.md, lambda classes).
    distinct.sort(
        (a, b) ->
            a.weight != b.weight
                ? Long.compare(b.weight, a.weight)
                : DistinctTrace.CANONICAL.compare(a, b));
    int kept = Math.min(distinct.size(), settings.maxDistinctTraces());
    List<DistinctTrace> clustered = new ArrayList<>(distinct.subList(0, kept));
    List<DistinctTrace> overflow = new ArrayList<>(distinct.subList(kept, distinct.size()));
    clustered.sort(DistinctTrace.CANONICAL);
    overflow.sort(DistinctTrace.CANONICAL);
    if (!overflow.isEmpty()) {
      notes.add(
          distinct.size()
              + " distinct call trees, more than maxDistinctTraces="
              + settings.maxDistinctTraces()
              + ": the "
              + overflow.size()
              + " rarest joined their nearest type without being clustered");
    }

    int[] clusterOf = clusterAll(clustered, settings, notes);
    List<List<Integer>> members = new ArrayList<>();
    for (int i = 0; i < clusterOf.length; i++) {
      while (members.size() <= clusterOf[i]) {
        members.add(new ArrayList<>());
      }
      members.get(clusterOf[i]).add(i);
    }
    int[] typeOfCluster = capTypes(members, clustered, settings.maxTypes(), notes);
    int typeCount = 0;
    for (int t : typeOfCluster) {
      typeCount = Math.max(typeCount, t + 1);
    }
    String[] entryOfType = new String[typeCount];
    List<List<PathSet>> representatives = new ArrayList<>();
    for (int t = 0; t < typeCount; t++) {
      representatives.add(List.of());
    }
    for (int c = 0; c < members.size(); c++) {
      int t = typeOfCluster[c];
      if (t >= 0) {
        entryOfType[t] = clustered.get(members.get(c).get(0)).entryPoint;
        representatives.set(t, representativesOf(members.get(c), clustered));
      }
    }

    // Every distinct trace with its type: the clustered ones by cluster, the rest by distance.
    List<DistinctTrace> all = new ArrayList<>(clustered);
    all.addAll(overflow);
    int[] typeOf = new int[all.size()];
    for (int i = 0; i < clustered.size(); i++) {
      typeOf[i] = typeOfCluster[clusterOf[i]];
    }
    for (int i = 0; i < overflow.size(); i++) {
      typeOf[clustered.size() + i] = nearest(overflow.get(i), entryOfType, representatives);
    }

    GuardSelector selector = new GuardSelector(all, typeOf, entryOfType, names);
    GuardSelector.Selection selection = selector.select(settings);
    List<String> typeNames = TypeNamer.names(entryOfType, selection.signatureByType(), names);
    ContextRenderer renderer = new ContextRenderer(all, typeOf, names, trunks);
    List<UnitTypeModel> types = new ArrayList<>(typeCount);
    for (int t = 0; t < typeCount; t++) {
      List<String> contexts = new ArrayList<>();
      List<Long> shown = new ArrayList<>(selection.chosenByType().get(t));
      if (shown.isEmpty() && selection.signatureByType()[t] >= 0) {
        shown.add(selection.signatureByType()[t]);
      }
      for (long c : shown) {
        contexts.add(renderer.render(t, entryOfType[t], c));
      }
      List<String> guardMethods = new ArrayList<>();
      for (int g = 0; g < selection.guardMethods().length; g++) {
        for (long bits : selection.rows()[g]) {
          if ((bits & (1L << t)) != 0) {
            guardMethods.add(names.nameOf(selection.guardMethods()[g]));
            break;
          }
        }
      }
      types.add(
          new UnitTypeModel(
              typeNames.get(t), entryOfType[t], representatives.get(t), contexts, guardMethods));
    }
    ContextTable table = ContextTable.of(typeCount, selection.guardMethods(), selection.rows());
    return new TrainedUnitTypes(types, table, settings, notes, trunks);
  }

  private static List<DistinctTrace> deduplicate(
      List<UnitCallTrace> traces,
      MethodNames names,
      TrainingSettings settings,
      Map<String, Integer> trunks) {
    Map<CallPath, CallPath> interned = new HashMap<>();
    Map<DistinctTrace.Key, Long> counts = new LinkedHashMap<>();
    for (UnitCallTrace trace : traces) {
      int trunk = trunks.getOrDefault(trace.entryPoint(), 0);
      counts.merge(DistinctTrace.keyOf(trace, settings, interned, trunk), 1L, Long::sum);
    }
    // Ranks of methods by name: orderings never depend on the ids the agent handed out.
    TreeSet<Integer> methods = new TreeSet<>();
    for (DistinctTrace.Key key : counts.keySet()) {
      for (CallPath p : key.paths()) {
        for (int i = 0; i < p.length(); i++) {
          methods.add(p.method(i));
        }
      }
      for (long c : key.contexts()) {
        methods.add(DistinctTrace.methodOf(c));
      }
    }
    List<Integer> byName = new ArrayList<>(methods);
    byName.sort(MethodNames.byName(names));
    Map<Integer, Integer> rank = new HashMap<>();
    for (int i = 0; i < byName.size(); i++) {
      rank.put(byName.get(i), i);
    }
    List<DistinctTrace> distinct = new ArrayList<>(counts.size());
    for (Map.Entry<DistinctTrace.Key, Long> e : counts.entrySet()) {
      distinct.add(DistinctTrace.of(e.getKey(), e.getValue(), rank::get));
    }
    return distinct;
  }

  private static int[] clusterAll(
      List<DistinctTrace> clustered, TrainingSettings settings, List<String> notes) {
    int n = clustered.size();
    double[][] distance = new double[n][n];
    long[] weights = new long[n];
    int[] groups = new int[n];
    Map<String, Integer> groupOf = new HashMap<>();
    for (int i = 0; i < n; i++) {
      weights[i] = clustered.get(i).weight;
      groups[i] = groupOf.computeIfAbsent(clustered.get(i).entryPoint, k -> groupOf.size());
      for (int j = 0; j < i; j++) {
        double d =
            groups[i] == groups[j]
                ? PathSet.centredDistance(clustered.get(i).paths, clustered.get(j).paths)
                : Double.POSITIVE_INFINITY;
        distance[i][j] = d;
        distance[j][i] = d;
      }
    }
    int[] atCut =
        AverageLinkage.cluster(distance, weights, groups, settings.distanceThreshold(), n);
    int clustersAtCut = count(atCut);
    if (clustersAtCut <= settings.maxTypes()) {
      return atCut;
    }
    int[] merged =
        AverageLinkage.cluster(
            distance, weights, groups, settings.distanceThreshold(), settings.maxTypes());
    if (count(merged) < clustersAtCut) {
      notes.add(
          clustersAtCut
              + " unit types at distance "
              + settings.distanceThreshold()
              + ", more than maxTypes="
              + settings.maxTypes()
              + ": the closest ones of the same entry point were merged past the cut, leaving "
              + count(merged));
    }
    return merged;
  }

  /**
   * Type of each cluster: the clusters in order, unless there are more than {@code maxTypes} (only
   * when more entry points than that had units): then the lightest go without a type.
   */
  private static int[] capTypes(
      List<List<Integer>> members, List<DistinctTrace> traces, int maxTypes, List<String> notes) {
    int[] typeOf = new int[members.size()];
    if (members.size() <= maxTypes) {
      for (int c = 0; c < typeOf.length; c++) {
        typeOf[c] = c;
      }
      return typeOf;
    }
    long[] weight = new long[members.size()];
    List<Integer> order = new ArrayList<>();
    for (int c = 0; c < members.size(); c++) {
      for (int i : members.get(c)) {
        weight[c] += traces.get(i).weight;
      }
      order.add(c);
    }
    order.sort(
        (a, b) ->
            weight[a] != weight[b] ? Long.compare(weight[b], weight[a]) : Integer.compare(a, b));
    boolean[] keep = new boolean[members.size()];
    for (int k = 0; k < maxTypes; k++) {
      keep[order.get(k)] = true;
    }
    int next = 0;
    for (int c = 0; c < typeOf.length; c++) {
      typeOf[c] = keep[c] ? next++ : -1;
    }
    notes.add(
        members.size()
            + " entry points' unit types, more than maxTypes="
            + maxTypes
            + ": the "
            + (members.size() - maxTypes)
            + " with fewest units have no type and keep their entry point's name");
    return typeOf;
  }

  /**
   * The medoid (least weighted distance to the other members) first, then up to two of the heaviest
   * other members, so a type with two common shapes is recognised by both.
   */
  private static List<PathSet> representativesOf(List<Integer> member, List<DistinctTrace> traces) {
    int medoid = member.get(0);
    double bestSum = Double.POSITIVE_INFINITY;
    for (int i : member) {
      double sum = 0;
      for (int j : member) {
        sum +=
            traces.get(j).weight
                * PathSet.centredDistance(traces.get(i).paths, traces.get(j).paths);
      }
      if (sum < bestSum) {
        bestSum = sum;
        medoid = i;
      }
    }
    List<Integer> others = new ArrayList<>(member);
    others.remove(Integer.valueOf(medoid));
    others.sort(
        (a, b) -> {
          long wa = traces.get(a).weight;
          long wb = traces.get(b).weight;
          return wa != wb ? Long.compare(wb, wa) : Integer.compare(a, b);
        });
    List<PathSet> reps = new ArrayList<>();
    reps.add(traces.get(medoid).paths);
    for (int k = 0; k < Math.min(2, others.size()); k++) {
      reps.add(traces.get(others.get(k)).paths);
    }
    return reps;
  }

  private static int nearest(
      DistinctTrace trace, String[] entryOfType, List<List<PathSet>> representatives) {
    int best = -1;
    double bestDistance = Double.POSITIVE_INFINITY;
    for (int t = 0; t < entryOfType.length; t++) {
      if (!entryOfType[t].equals(trace.entryPoint)) {
        continue;
      }
      for (PathSet r : representatives.get(t)) {
        double d = PathSet.centredDistance(trace.paths, r);
        if (d < bestDistance) {
          bestDistance = d;
          best = t;
        }
      }
    }
    return best;
  }

  private static int count(int[] clusterOf) {
    int n = 0;
    for (int c : clusterOf) {
      n = Math.max(n, c + 1);
    }
    return n;
  }
}
