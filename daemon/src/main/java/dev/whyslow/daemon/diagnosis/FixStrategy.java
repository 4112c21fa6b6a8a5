package dev.whyslow.daemon.diagnosis;

/**
 * Song and Lu's categories of how developers fixed the performance bugs a predictor pointed at
 * (§3.2.2 for branches and returns, Table 7 for loops).
 */
public enum FixStrategy {
  CHANGE_BRANCH_CONDITION("change the branch condition"),
  OPTIMIZE_BRANCH_BODY("optimize the branch body"),
  REDUCE_LOOP_ITERATIONS("reduce loop iterations"),
  REMOVE_LOOP("remove the loop"),
  COMBINE_LOOP_ITERATIONS_OR_INSTANCES("combine loop iterations or instances"),
  OPTIMIZE_OR_AVOID_CALL("optimize the function or avoid calling it in the slow case"),
  INSPECT_SITE("inspect the code at this site");

  private final String words;

  FixStrategy(String words) {
    this.words = words;
  }

  /** The strategy as a report shows it, e.g. {@code "reduce loop iterations"}. */
  public String words() {
    return words;
  }
}
