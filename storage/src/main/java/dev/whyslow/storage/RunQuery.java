package dev.whyslow.storage;

import dev.whyslow.protocol.Label;
import dev.whyslow.protocol.RunKind;
import java.util.Optional;

/**
 * Which runs to read or relabel. Empty optionals match everything; the time window is {@code
 * [fromInclusiveMillis, toExclusiveMillis)} over run start times.
 */
public record RunQuery(
    Optional<String> service,
    long fromInclusiveMillis,
    long toExclusiveMillis,
    Optional<String> instance,
    Optional<String> serviceVersion,
    Optional<String> unitType,
    Optional<RunKind> kind,
    Optional<Label> label,
    int limit) {

  public static final int DEFAULT_LIMIT = 1000;

  public static RunQuery all() {
    return new RunQuery(
        Optional.empty(),
        0,
        Long.MAX_VALUE,
        Optional.empty(),
        Optional.empty(),
        Optional.empty(),
        Optional.empty(),
        Optional.empty(),
        Integer.MAX_VALUE);
  }

  public static RunQuery forService(String service) {
    return all().withService(service);
  }

  public RunQuery withService(String value) {
    return new RunQuery(
        Optional.of(value),
        fromInclusiveMillis,
        toExclusiveMillis,
        instance,
        serviceVersion,
        unitType,
        kind,
        label,
        limit);
  }

  public RunQuery withWindow(long fromInclusive, long toExclusive) {
    return new RunQuery(
        service,
        fromInclusive,
        toExclusive,
        instance,
        serviceVersion,
        unitType,
        kind,
        label,
        limit);
  }

  public RunQuery withInstance(String value) {
    return new RunQuery(
        service,
        fromInclusiveMillis,
        toExclusiveMillis,
        Optional.of(value),
        serviceVersion,
        unitType,
        kind,
        label,
        limit);
  }

  public RunQuery withServiceVersion(String value) {
    return new RunQuery(
        service,
        fromInclusiveMillis,
        toExclusiveMillis,
        instance,
        Optional.of(value),
        unitType,
        kind,
        label,
        limit);
  }

  public RunQuery withUnitType(String value) {
    return new RunQuery(
        service,
        fromInclusiveMillis,
        toExclusiveMillis,
        instance,
        serviceVersion,
        Optional.of(value),
        kind,
        label,
        limit);
  }

  public RunQuery withKind(RunKind value) {
    return new RunQuery(
        service,
        fromInclusiveMillis,
        toExclusiveMillis,
        instance,
        serviceVersion,
        unitType,
        Optional.of(value),
        label,
        limit);
  }

  public RunQuery withLabel(Label value) {
    return new RunQuery(
        service,
        fromInclusiveMillis,
        toExclusiveMillis,
        instance,
        serviceVersion,
        unitType,
        kind,
        Optional.of(value),
        limit);
  }

  public RunQuery withLimit(int value) {
    if (value <= 0) {
      throw new IllegalArgumentException("limit must be positive, was " + value);
    }
    return new RunQuery(
        service,
        fromInclusiveMillis,
        toExclusiveMillis,
        instance,
        serviceVersion,
        unitType,
        kind,
        label,
        value);
  }

  /** Whether a stored run matches every filter of this query (the time window included). */
  public boolean matches(StoredRun stored) {
    long start = stored.run().startEpochMillis();
    return start >= fromInclusiveMillis
        && start < toExclusiveMillis
        && service.map(s -> s.equals(stored.origin().service())).orElse(true)
        && instance.map(s -> s.equals(stored.origin().instance())).orElse(true)
        && serviceVersion.map(s -> s.equals(stored.origin().serviceVersion())).orElse(true)
        && unitType.map(s -> s.equals(stored.run().unitType())).orElse(true)
        && kind.map(k -> k == stored.run().kind()).orElse(true)
        && label.map(l -> l == stored.run().label()).orElse(true);
  }
}
