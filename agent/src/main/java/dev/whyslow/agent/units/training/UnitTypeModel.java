package dev.whyslow.agent.units.training;

import java.util.List;

/**
 * What training keeps of one unit type: its name and entry point, the units that stand for it when
 * classifying (the medoid first), and the description sent to the daemon.
 */
record UnitTypeModel(
    String name,
    String entryPoint,
    List<PathSet> representatives,
    List<String> contexts,
    List<String> guardMethods) {
  UnitTypeModel {
    representatives = List.copyOf(representatives);
    contexts = List.copyOf(contexts);
    guardMethods = List.copyOf(guardMethods);
  }
}
