package dev.whyslow.daemon.http;

import dev.whyslow.protocol.UnitTypeInfo;
import dev.whyslow.protocol.Violation;
import dev.whyslow.storage.StoredThreshold;
import dev.whyslow.storage.StoredViolation;
import dev.whyslow.storage.ViolationIds;
import java.time.Instant;
import java.util.List;

/** The JSON shapes of the unit endpoints: thresholds, violations and unit types. */
public final class UnitViews {
  private UnitViews() {}

  /** A unit type's current threshold. */
  public record ThresholdView(
      String unitType,
      long thresholdNanos,
      long basedOnCount,
      String computedAt,
      long computedAtEpochMillis) {
    public static ThresholdView of(StoredThreshold t) {
      return new ThresholdView(
          t.unitType(),
          t.thresholdNanos(),
          t.basedOnCount(),
          Instant.ofEpochMilli(t.computedAtEpochMillis()).toString(),
          t.computedAtEpochMillis());
    }
  }

  /** A violation; {@code stack} only when one violation is asked for. */
  public record ViolationView(
      String id,
      String service,
      String instance,
      String version,
      String unitType,
      String detected,
      long detectedEpochMillis,
      long unitStartEpochMillis,
      long elapsedNanos,
      long thresholdNanos,
      String cause,
      String thread,
      long runSequence,
      int frameCount,
      List<String> stack) {
    public static ViolationView of(StoredViolation stored, boolean withStack) {
      Violation v = stored.violation();
      return new ViolationView(
          ViolationIds.format(stored.violationId()),
          stored.origin().service(),
          stored.origin().instance(),
          stored.origin().serviceVersion(),
          v.unitType(),
          Instant.ofEpochMilli(v.detectedEpochMillis()).toString(),
          v.detectedEpochMillis(),
          v.unitStartEpochMillis(),
          v.elapsedNanos(),
          v.thresholdNanos(),
          v.cause().spelling(),
          v.thread(),
          v.runSequence(),
          v.stack().size(),
          withStack ? v.stack() : null);
    }
  }

  /**
   * A unit type with what happened in the window: units that ended, their mean and estimated p99,
   * violations counted by the agents, and its threshold; {@code info} is what training learned,
   * when the agent sent it.
   */
  public record UnitView(
      String unitType,
      long count,
      double meanNanos,
      double p99Nanos,
      long maxNanos,
      long violations,
      ThresholdView threshold,
      UnitTypeInfo info) {}
}
