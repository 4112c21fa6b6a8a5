package dev.whyslow.agent.units.training;

import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A unit as PerfGuard compares units: the set of its distinct root-to-leaf call paths (a loop's
 * repetitions give the same paths, so iteration counts do not split a type). Caps from {@link
 * TrainingSettings}: the first {@code maxCallsPerTrace} entries, the first {@code maxPathsPerUnit}
 * distinct paths, the first {@code maxPathLength} frames of each.
 */
final class PathSet {
  private final CallPath[] paths;
  private final double selfDistance;

  PathSet(List<CallPath> paths) {
    this.paths = paths.toArray(new CallPath[0]);
    this.selfDistance = meanDistance(this, this);
  }

  /**
   * Extracts the distinct paths of a trace; {@code interned} maps each path to one shared instance
   * so equal paths compare by identity (pass a fresh map when that does not matter).
   */
  static List<CallPath> pathsOf(
      UnitCallTrace trace, TrainingSettings settings, Map<CallPath, CallPath> interned, int trunk) {
    int[] methods = trace.methodIds();
    int[] depths = trace.relativeDepths();
    int calls = Math.min(methods.length, settings.maxCallsPerTrace());
    int maxLength = trunk + settings.maxPathLength();
    Set<CallPath> found = new LinkedHashSet<>();
    int[] stack = new int[maxLength];
    int stackDepth = 0; // frames on the path to the current entry, untruncated
    for (int i = 0; i < calls && found.size() < settings.maxPathsPerUnit(); i++) {
      // A jump of more than one level (frames the agent did not see) hangs the entry under its
      // predecessor; a depth below 1 is read as 1.
      int depth = Math.max(1, Math.min(depths[i], stackDepth + 1));
      if (depth <= maxLength) {
        stack[depth - 1] = methods[i];
      }
      stackDepth = depth;
      boolean leaf = i + 1 >= calls || depths[i + 1] <= depth;
      if (leaf) {
        int from = Math.min(trunk, depth);
        int[] path = Arrays.copyOfRange(stack, from, Math.max(from, Math.min(depth, maxLength)));
        CallPath p = new CallPath(path);
        found.add(interned.computeIfAbsent(p, k -> k));
      }
    }
    if (found.isEmpty()) {
      CallPath empty = new CallPath(new int[0]);
      found.add(interned.computeIfAbsent(empty, k -> k));
    }
    return List.copyOf(found);
  }

  /**
   * How many frames every unit of these traces passes first, one below the other, before any
   * branching (request filters, a dispatcher): the common trunk. Those frames tell no unit from
   * another, yet each path's LCS would count them and bring every pair of kinds close, so the
   * distance leaves them out.
   */
  static int commonTrunk(List<UnitCallTrace> traces, TrainingSettings settings) {
    int[] common = null;
    int length = 0;
    for (UnitCallTrace t : traces) {
      int[] methods = t.methodIds();
      int[] depths = t.relativeDepths();
      int calls = Math.min(methods.length, settings.maxCallsPerTrace());
      int chain = 0;
      while (chain < calls && depths[chain] == chain + 1) {
        chain++;
      }
      int trunk = chain;
      for (int i = chain; i < calls && trunk > 0; i++) {
        // A later entry at depth d is a second child of the frame at depth d - 1.
        trunk = Math.min(trunk, Math.max(0, depths[i] - 1));
      }
      if (trunk == chain && chain == calls) {
        trunk = Math.max(0, chain - 1); // one chain: keep its leaf so the unit has a path
      }
      if (common == null) {
        common = Arrays.copyOf(methods, trunk);
        length = trunk;
      } else {
        length = Math.min(length, trunk);
        for (int i = 0; i < length; i++) {
          if (common[i] != methods[i]) {
            length = i;
            break;
          }
        }
      }
      if (length == 0) {
        return 0;
      }
    }
    return length;
  }

  int size() {
    return paths.length;
  }

  CallPath path(int index) {
    return paths[index];
  }

  /** PerfGuard's unit distance: the mean path distance over all pairs of their paths. */
  static double meanDistance(PathSet a, PathSet b) {
    double sum = 0;
    for (CallPath p : a.paths) {
      for (CallPath q : b.paths) {
        sum += CallPath.distance(p, q);
      }
    }
    return sum / ((double) a.paths.length * b.paths.length);
  }

  /**
   * The distance clustering uses: {@link #meanDistance} less the mean of both units' distances to
   * themselves, floored at 0. The plain mean is not 0 for a unit with itself once it has several
   * different paths, so without centring a fixed cut would mean different things for units with one
   * path and with twenty.
   */
  static double centredDistance(PathSet a, PathSet b) {
    if (a == b) {
      return 0.0;
    }
    double d = meanDistance(a, b) - (a.selfDistance + b.selfDistance) / 2;
    return d > 0 ? d : 0.0;
  }
}
