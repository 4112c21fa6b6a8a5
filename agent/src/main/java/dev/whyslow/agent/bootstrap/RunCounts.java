package dev.whyslow.agent.bootstrap;

/**
 * The counters of one run, addressed by slot: a site's slot holds how often a sampled evaluation
 * reached it (observed), and {@code slot + 1 + i} how often its predicate {@code i} was true. The
 * sampled path is rare, so implementations may use atomics freely.
 */
public abstract class RunCounts {
  /** Adds one to the counter at {@code slot}. */
  public abstract void increment(int slot);

  /** The counter at {@code slot}; 0 if nothing was recorded there. */
  public abstract long get(int slot);

  /** Slots this run can hold; slots are in {@code [0, capacity())}. */
  public abstract int capacity();
}
