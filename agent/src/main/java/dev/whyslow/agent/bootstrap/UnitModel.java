package dev.whyslow.agent.bootstrap;

/**
 * What a training taught the guards: the context table and the unit type of each trained index (bit
 * {@code i} of a candidate set is {@code types[i]}), with those types' thresholds by the same index
 * for tie-breaking. Published as a whole through {@link Units#publish}.
 */
public final class UnitModel {
  final ContextTable table;
  final UnitType[] types;
  private volatile long[] thresholds;

  public UnitModel(ContextTable table, UnitType[] types) {
    this.table = table;
    this.types = types.clone();
    refreshThresholds();
  }

  /** Re-reads every trained type's threshold; call after thresholds change. */
  public void refreshThresholds() {
    long[] t = new long[types.length];
    for (int i = 0; i < types.length; i++) {
      t[i] = types[i].thresholdNanos();
    }
    thresholds = t;
  }

  long[] thresholds() {
    return thresholds;
  }

  /** The guards' context table. */
  public ContextTable table() {
    return table;
  }

  public int typeCount() {
    return types.length;
  }

  public UnitType type(int index) {
    return types[index];
  }
}
