package dev.whyslow.agent.config;

/**
 * Which probe families the agent inserts.
 *
 * @param branches conditional jumps (branch and loop-branch predicates)
 * @param returns returns of numbers, booleans and references
 */
public record ProbeSet(boolean branches, boolean returns) {
  public static final ProbeSet ALL = new ProbeSet(true, true);

  public boolean any() {
    return branches || returns;
  }
}
