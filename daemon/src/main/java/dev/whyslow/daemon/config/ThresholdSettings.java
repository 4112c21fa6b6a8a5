package dev.whyslow.daemon.config;

import java.time.Duration;
import java.util.Objects;

/**
 * How thresholds are computed ({@code thresholds.*}): every {@code interval}, the unit durations of
 * the last {@code window} of each unit type with at least {@code minCount} of them give threshold =
 * centre + {@code k} · spread, by {@code method}.
 */
public record ThresholdSettings(
    double k, Duration window, long minCount, ThresholdMethod method, Duration interval) {
  public ThresholdSettings {
    Objects.requireNonNull(window, "window");
    Objects.requireNonNull(method, "method");
    Objects.requireNonNull(interval, "interval");
  }

  /** The documented defaults: k = 4 over 15 minutes, at least 200 units, μ + kσ, every 10 s. */
  public static ThresholdSettings defaults() {
    return new ThresholdSettings(
        4, Duration.ofMinutes(15), 200, ThresholdMethod.MEAN_SIGMA, Duration.ofSeconds(10));
  }
}
