package dev.whyslow.agent.units.training;

import dev.whyslow.agent.bootstrap.ContextTable;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Groups traced units into unit types (PerfGuard §4.3) and picks the guards that tell them apart at
 * run time (§4.4).
 */
public final class UnitTypeTrainer {
  private UnitTypeTrainer() {}

  /** Trains on {@code traces}; deterministic for the same traces in any order. */
  public static TrainedUnitTypes train(
      List<UnitCallTrace> traces, MethodNames names, TrainingSettings settings) {
    // Interim: one type per entry point, no guards (replaced by the clustering below).
    Map<String, List<UnitCallTrace>> byEntry = new TreeMap<>();
    for (UnitCallTrace t : traces) {
      byEntry.computeIfAbsent(t.entryPoint(), k -> new ArrayList<>()).add(t);
    }
    List<UnitTypeModel> types = new ArrayList<>();
    for (Map.Entry<String, List<UnitCallTrace>> e : byEntry.entrySet()) {
      if (types.size() == settings.maxTypes()) {
        break;
      }
      PathSet rep = new PathSet(PathSet.pathsOf(e.getValue().get(0), settings, new HashMap<>()));
      types.add(new UnitTypeModel(e.getKey(), e.getKey(), List.of(rep), List.of(), List.of()));
    }
    return new TrainedUnitTypes(
        types, ContextTable.of(types.size(), new int[0], new long[0][]), settings, List.of());
  }
}
