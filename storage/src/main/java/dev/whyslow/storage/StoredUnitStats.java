package dev.whyslow.storage;

import dev.whyslow.protocol.UnitHistogram;
import java.util.Objects;

/**
 * One agent's histogram of one unit type over one interval, as stored: the threshold computation
 * and the metrics add these up across instances and intervals ({@link UnitHistograms#merge}).
 *
 * @param origin the JVM that sent it
 * @param intervalStartEpochMillis start of the agent's interval
 * @param intervalMillis its length
 * @param histogram the durations of the units of {@code histogram.unitType()} that ended in it
 */
public record StoredUnitStats(
    RunOrigin origin, long intervalStartEpochMillis, long intervalMillis, UnitHistogram histogram) {
  public StoredUnitStats {
    Objects.requireNonNull(origin, "origin");
    Objects.requireNonNull(histogram, "histogram");
  }

  public String unitType() {
    return histogram.unitType();
  }
}
