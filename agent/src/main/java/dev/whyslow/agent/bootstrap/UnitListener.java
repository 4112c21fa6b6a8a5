package dev.whyslow.agent.bootstrap;

/**
 * The agent core's side of units, installed with {@link Units#install}. {@link Units} calls it on
 * the application's threads (and the watchdog's); an exception thrown here is caught, counted in
 * {@link AgentErrors} and never reaches the application.
 */
public abstract class UnitListener {
  /** The type named {@code name}, created once and then returned without allocating. */
  public abstract UnitType typeOf(String name);

  /**
   * A unit ended, on its own thread. {@code unit}'s fields (counts, trace) are valid only during
   * the call: the thread reuses them for its next unit.
   *
   * @param runSequence the sequence a violation already gave the unit's run, or 0
   */
  public abstract void unitEnded(
      UnitState unit, UnitType type, long elapsedNanos, boolean violation, long runSequence);

  /**
   * A unit was found over its threshold, once per unit.
   *
   * @param cause {@code ViolationCause} code: 1 guard, 2 unit end, 3 watchdog
   * @param stack the unit's thread's stack, innermost first, agent frames removed
   */
  public abstract void violation(
      UnitState unit,
      UnitType type,
      long elapsedNanos,
      long thresholdNanos,
      int cause,
      StackTraceElement[] stack,
      long runSequence);

  /** A new run sequence number, unique in this JVM. */
  public abstract long nextRunSequence();
}
