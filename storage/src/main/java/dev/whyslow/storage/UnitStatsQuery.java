package dev.whyslow.storage;

import java.util.Objects;
import java.util.Optional;

/**
 * Which unit statistics to read: one service, optionally one unit type, intervals that started in
 * {@code [fromInclusiveMillis, toExclusiveMillis)}.
 */
public record UnitStatsQuery(
    String service, Optional<String> unitType, long fromInclusiveMillis, long toExclusiveMillis) {
  public UnitStatsQuery {
    Objects.requireNonNull(service, "service");
    Objects.requireNonNull(unitType, "unitType");
  }

  /** Every unit type of the service in the window. */
  public static UnitStatsQuery of(
      String service, long fromInclusiveMillis, long toExclusiveMillis) {
    return new UnitStatsQuery(service, Optional.empty(), fromInclusiveMillis, toExclusiveMillis);
  }

  public UnitStatsQuery withUnitType(String value) {
    return new UnitStatsQuery(service, Optional.of(value), fromInclusiveMillis, toExclusiveMillis);
  }

  public boolean matches(StoredUnitStats s) {
    return s.origin().service().equals(service)
        && unitType.map(t -> t.equals(s.unitType())).orElse(true)
        && s.intervalStartEpochMillis() >= fromInclusiveMillis
        && s.intervalStartEpochMillis() < toExclusiveMillis;
  }
}
