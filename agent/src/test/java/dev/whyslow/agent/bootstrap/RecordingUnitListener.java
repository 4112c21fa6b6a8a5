package dev.whyslow.agent.bootstrap;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;

/** Remembers every unit end and violation, for tests of {@link Units}. */
public class RecordingUnitListener extends UnitListener {
  public record Ended(
      String type, String entryPoint, int kind, long elapsedNanos, boolean violation) {}

  public record Found(String type, int cause, StackTraceElement[] stack, long runSequence) {}

  public final List<Ended> ended = new CopyOnWriteArrayList<>();
  public final List<Found> violations = new CopyOnWriteArrayList<>();
  final Map<String, UnitType> types = new ConcurrentHashMap<>();
  private final AtomicLong sequence = new AtomicLong();

  @Override
  public UnitType typeOf(String name) {
    UnitType known = types.get(name); // computeIfAbsent alone would allocate its lambda per call
    return known != null
        ? known
        : types.computeIfAbsent(name, n -> new UnitType(n, types.size(), null));
  }

  @Override
  public void unitEnded(
      UnitState unit, UnitType type, long elapsedNanos, boolean violation, long runSequence) {
    ended.add(new Ended(type.name(), unit.entryPoint(), unit.kind(), elapsedNanos, violation));
  }

  @Override
  public void violation(
      UnitState unit,
      UnitType type,
      long elapsedNanos,
      long thresholdNanos,
      int cause,
      StackTraceElement[] stack,
      long runSequence) {
    violations.add(new Found(type.name(), cause, stack, runSequence));
  }

  @Override
  public long nextRunSequence() {
    return sequence.incrementAndGet();
  }

  /** Gives the type {@code name} (created now if need be) the threshold {@code nanos}. */
  void threshold(String name, long nanos) {
    UnitType type = typeOf(name);
    long[] t = new long[types.size() + 1];
    t[type.index()] = nanos;
    UnitType.setThresholds(t);
  }
}
