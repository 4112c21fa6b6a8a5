package dev.whyslow.storage;

import dev.whyslow.protocol.Threshold;
import java.util.Objects;

/**
 * The current threshold of one unit type of a service, as the daemon computed it.
 *
 * @param unitType the unit type's name
 * @param thresholdNanos units running longer are violations
 * @param basedOnCount how many unit durations it was computed from
 * @param computedAtEpochMillis when the daemon computed it
 */
public record StoredThreshold(
    String unitType, long thresholdNanos, long basedOnCount, long computedAtEpochMillis) {
  public StoredThreshold {
    Objects.requireNonNull(unitType, "unitType");
    if (thresholdNanos <= 0 || basedOnCount < 0) {
      throw new IllegalArgumentException(
          "threshold of '"
              + unitType
              + "' must be > 0 ns and its count >= 0, were "
              + thresholdNanos
              + " and "
              + basedOnCount);
    }
  }

  /** The wire form the daemon pushes to agents. */
  public Threshold toThreshold() {
    return new Threshold(unitType, thresholdNanos, basedOnCount);
  }
}
