package dev.whyslow.daemon.diagnosis;

import java.util.ArrayList;
import java.util.List;

/** The data checks every model makes before ranking, worded for the person who must act. */
final class RunSupport {
  private RunSupport() {}

  /** Reasons the table cannot support {@code model}; empty when it can. */
  static List<String> check(PredicateTable table, DiagnosisOptions options, String model) {
    List<String> reasons = new ArrayList<>();
    int failing = table.failingRunCount();
    int success = table.successRunCount();
    int labelled = table.runCount();
    if (failing == 0) {
      reasons.add(
          "no failing runs among the "
              + labelled
              + " labelled runs; "
              + model
              + " compares failing with successful runs: label slow runs as failure (API, CLI or"
              + " guards) and diagnose again");
    } else if (failing < options.minFailingRuns()) {
      reasons.add(
          "only "
              + failing
              + " failing run"
              + (failing == 1 ? "" : "s")
              + "; "
              + model
              + " needs at least "
              + options.minFailingRuns()
              + " (option minFailingRuns): widen the window or wait for more failures");
    }
    if (success == 0) {
      reasons.add(
          "no successful runs among the "
              + labelled
              + " labelled runs; "
              + model
              + " needs a baseline: label normal runs as success and diagnose again");
    } else if (success < options.minSuccessRuns()) {
      reasons.add(
          "only "
              + success
              + " successful run"
              + (success == 1 ? "" : "s")
              + "; "
              + model
              + " needs at least "
              + options.minSuccessRuns()
              + " (option minSuccessRuns): widen the window or label more runs as success");
    }
    if (reasons.isEmpty() && table.predicateCount() == 0) {
      reasons.add(
          "no predicates (filter: "
              + table.filter().describe()
              + ") were observed in the "
              + labelled
              + " labelled runs; widen the filter or check that the agent instruments the slow"
              + " code");
    }
    return reasons;
  }
}
