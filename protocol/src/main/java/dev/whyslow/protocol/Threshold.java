package dev.whyslow.protocol;

import java.util.Objects;

/**
 * The duration above which a unit of one type is a violation.
 *
 * @param unitType the unit type's name
 * @param thresholdNanos the threshold
 * @param basedOnCount how many unit durations it was computed from
 */
public record Threshold(String unitType, long thresholdNanos, long basedOnCount) {
  public Threshold {
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
}
