package dev.whyslow.agent.bootstrap;

/**
 * One unit type as the running code sees it: its name, its current threshold and the core's
 * per-type data (its histogram). Created by the core ({@link UnitListener#typeOf}) once per name
 * and reused for every unit of the type, so ending a unit allocates nothing.
 */
public final class UnitType {
  /** No threshold is known: units of this type are neither violations nor labelled. */
  public static final long NO_THRESHOLD = 0L;

  /** Thresholds by type index, replaced as a whole so a new set applies atomically. */
  private static volatile long[] thresholds = new long[0];

  private final String name;
  private final int index;
  private final Object data;

  /**
   * @param index dense, from 0, assigned by the core
   * @param data whatever the core keeps per type (its histogram); handed back at unit end
   */
  public UnitType(String name, int index, Object data) {
    this.name = name;
    this.index = index;
    this.data = data;
  }

  /** Installs a new threshold for every type at once, by index; 0 or a missing index: none. */
  public static void setThresholds(long[] byIndex) {
    thresholds = byIndex.clone();
  }

  public int index() {
    return index;
  }

  public String name() {
    return name;
  }

  /** The threshold in nanoseconds, or {@link #NO_THRESHOLD}. */
  public long thresholdNanos() {
    long[] t = thresholds;
    return index < t.length && t[index] > 0 ? t[index] : NO_THRESHOLD;
  }

  public Object data() {
    return data;
  }
}
