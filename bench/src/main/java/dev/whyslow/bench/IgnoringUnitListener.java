package dev.whyslow.bench;

import dev.whyslow.agent.bootstrap.UnitListener;
import dev.whyslow.agent.bootstrap.UnitState;
import dev.whyslow.agent.bootstrap.UnitType;

/**
 * Units without a daemon, for benchmarks that run instrumented code inside units: every unit has
 * one type without a threshold, and nothing is sent anywhere.
 */
public final class IgnoringUnitListener extends UnitListener {
  private final UnitType type;
  private long sequence;

  public IgnoringUnitListener(String typeName) {
    this.type = new UnitType(typeName, 0, null);
  }

  @Override
  public UnitType typeOf(String name) {
    return type;
  }

  @Override
  public void unitEnded(
      UnitState unit, UnitType type, long elapsedNanos, boolean violation, long runSequence) {}

  @Override
  public void violation(
      UnitState unit,
      UnitType type,
      long elapsedNanos,
      long thresholdNanos,
      int cause,
      StackTraceElement[] stack,
      long runSequence) {}

  @Override
  public long nextRunSequence() {
    return ++sequence;
  }
}
