package dev.whyslow.agent.bootstrap;

/**
 * Declares units from application code: {@code Whyslow.unitBegin("com.acme.Batch.process")} ...
 * {@code Whyslow.unitEnd()}, best in a {@code finally}. Calls nest like entry points: inside
 * another unit a begin only renames it. Without the agent, or with units off, both do nothing; they
 * never throw.
 */
public final class Whyslow {
  private Whyslow() {}

  /** Starts a unit named {@code name} on this thread (a stable name: class and method). */
  public static void unitBegin(String name) {
    if (name != null) {
      Units.begin(name, UnitState.DECLARED);
    }
  }

  /** Ends the unit this thread began with {@link #unitBegin}. */
  public static void unitEnd() {
    Units.end();
  }
}
