package dev.whyslow.protocol;

import java.util.List;

/**
 * Agent to daemon: the unit durations of one interval, one histogram per unit type that had units
 * end in it. Units are summarised here rather than sent one record each; unit runs carry the
 * sampled predicates separately.
 *
 * @param intervalStartEpochMillis wall-clock start of the interval
 * @param intervalMillis its length
 */
public record UnitStats(
    long intervalStartEpochMillis, long intervalMillis, List<UnitHistogram> histograms)
    implements Message {
  public UnitStats {
    histograms = List.copyOf(histograms);
    if (intervalMillis <= 0) {
      throw new IllegalArgumentException("interval must be > 0 ms, was " + intervalMillis);
    }
  }
}
