package dev.whyslow.storage;

import java.util.Objects;
import java.util.Optional;

/**
 * Which violations to list: one service, optionally one unit type, detected in {@code
 * [fromInclusiveMillis, toExclusiveMillis)}, at most {@code limit}, newest first.
 */
public record ViolationQuery(
    String service,
    Optional<String> unitType,
    long fromInclusiveMillis,
    long toExclusiveMillis,
    int limit) {

  public static final int DEFAULT_LIMIT = 100;

  public ViolationQuery {
    Objects.requireNonNull(service, "service");
    Objects.requireNonNull(unitType, "unitType");
    if (limit <= 0) {
      throw new IllegalArgumentException("limit must be positive, was " + limit);
    }
  }

  /** The newest {@link #DEFAULT_LIMIT} violations of a service, any time. */
  public static ViolationQuery forService(String service) {
    return new ViolationQuery(service, Optional.empty(), 0, Long.MAX_VALUE, DEFAULT_LIMIT);
  }

  public ViolationQuery withUnitType(String value) {
    return new ViolationQuery(
        service, Optional.of(value), fromInclusiveMillis, toExclusiveMillis, limit);
  }

  public ViolationQuery withWindow(long fromInclusive, long toExclusive) {
    return new ViolationQuery(service, unitType, fromInclusive, toExclusive, limit);
  }

  public ViolationQuery withLimit(int value) {
    return new ViolationQuery(service, unitType, fromInclusiveMillis, toExclusiveMillis, value);
  }

  public boolean matches(StoredViolation v) {
    long detected = ViolationIds.detectedEpochMillis(v.violationId());
    return v.origin().service().equals(service)
        && unitType.map(t -> t.equals(v.violation().unitType())).orElse(true)
        && detected >= fromInclusiveMillis
        && detected < toExclusiveMillis;
  }
}
