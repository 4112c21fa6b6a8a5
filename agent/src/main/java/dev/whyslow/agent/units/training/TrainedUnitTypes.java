package dev.whyslow.agent.units.training;

import dev.whyslow.agent.bootstrap.ContextTable;
import dev.whyslow.agent.bootstrap.TypeInference;
import dev.whyslow.protocol.UnitTypeInfo;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The result of one training: the unit types (index = bit in {@link ContextTable} candidate sets),
 * the context table the guards use, and a classifier that places a whole trace by call-path
 * distance, against which run-time inference is audited. Immutable.
 *
 * <p>A unit that reaches no guard has no inferred type ({@link TypeInference#best} gives -1);
 * {@link #typeOfEntryPoint} then names the type when its entry point has only one, and such a
 * type's name is the entry point itself, the same name units had before training.
 */
public final class TrainedUnitTypes {
  private final List<UnitTypeModel> types;
  private final ContextTable contextTable;
  private final TrainingSettings settings;
  private final List<String> notes;

  /** Frames every unit of an entry point passes first, left out of the distance. */
  private final Map<String, Integer> trunks;

  TrainedUnitTypes(
      List<UnitTypeModel> types,
      ContextTable contextTable,
      TrainingSettings settings,
      List<String> notes,
      Map<String, Integer> trunks) {
    this.trunks = Map.copyOf(trunks);
    this.types = List.copyOf(types);
    this.contextTable = contextTable;
    this.settings = settings;
    this.notes = List.copyOf(notes);
  }

  /** Unit types, at most 64. */
  public int typeCount() {
    return types.size();
  }

  /** The stable name of type {@code index}, e.g. {@code Router.handle/Catalog.search}. */
  public String typeName(int index) {
    return types.get(index).name();
  }

  /** Where units of type {@code index} start, e.g. {@code com.acme.Router.handle}. */
  public String entryPointOf(int index) {
    return types.get(index).entryPoint();
  }

  /** The table the guards look candidates up in. */
  public ContextTable contextTable() {
    return contextTable;
  }

  /** What each type stands for, in index order, for {@code UnitTypeBatch}. */
  public List<UnitTypeInfo> describe() {
    List<UnitTypeInfo> out = new ArrayList<>(types.size());
    for (UnitTypeModel t : types) {
      out.add(new UnitTypeInfo(t.name(), t.entryPoint(), t.contexts(), t.guardMethods()));
    }
    return out;
  }

  /**
   * What training had to cap or merge (more than 64 types, too many distinct traces, ...), one
   * sentence each, for the agent's log; empty when nothing was.
   */
  public List<String> notes() {
    return notes;
  }

  /**
   * The type a whole trace belongs to: the nearest type of the same entry point by the clustering's
   * distance to its representatives; -1 when training saw no unit of that entry point.
   */
  public int classify(UnitCallTrace trace) {
    int trunk = trunks.getOrDefault(trace.entryPoint(), 0);
    PathSet units = new PathSet(PathSet.pathsOf(trace, settings, new HashMap<>(), trunk));
    int best = -1;
    double bestDistance = Double.POSITIVE_INFINITY;
    for (int i = 0; i < types.size(); i++) {
      UnitTypeModel t = types.get(i);
      if (!t.entryPoint().equals(trace.entryPoint())) {
        continue;
      }
      for (PathSet r : t.representatives()) {
        double d = PathSet.centredDistance(units, r);
        if (d < bestDistance) {
          best = i;
          bestDistance = d;
        }
      }
    }
    return best;
  }

  /** The only type of an entry point, or -1 when it has none or several. */
  public int typeOfEntryPoint(String entryPoint) {
    int found = -1;
    for (int i = 0; i < types.size(); i++) {
      if (types.get(i).entryPoint().equals(entryPoint)) {
        if (found >= 0) {
          return -1;
        }
        found = i;
      }
    }
    return found;
  }

  /**
   * Replays what the agent's guards would do for this trace: a hit at every entry into a guard
   * method (at its relative depth), then {@link TypeInference#best}; falls back to {@link
   * #typeOfEntryPoint} when no guard was hit. For audits and the accuracy benchmark.
   */
  public int inferFromGuards(UnitCallTrace trace, long[] thresholdNanosByType) {
    TypeInference inference = new TypeInference(Math.max(1, types.size()));
    int[] methods = trace.methodIds();
    int[] depths = trace.relativeDepths();
    for (int i = 0; i < methods.length; i++) {
      int guard = contextTable.guardIdOf(methods[i]);
      if (guard >= 0) {
        inference.hit(contextTable.candidates(guard, depths[i]));
      }
    }
    int best = inference.best(thresholdNanosByType);
    return best >= 0 ? best : typeOfEntryPoint(trace.entryPoint());
  }
}
