package dev.whyslow.daemon.config;

import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

/** How the daemon turns a unit type's durations into a threshold ({@code thresholds.method}). */
public enum ThresholdMethod {
  /** μ + k·σ, exact from count, sum and sum of squares. */
  MEAN_SIGMA("mean-sigma"),
  /** median + k · 1.4826 · MAD, estimated from the histogram buckets; ignores a heavy tail. */
  ROBUST("robust");

  private final String spelling;

  ThresholdMethod(String spelling) {
    this.spelling = spelling;
  }

  public String spelling() {
    return spelling;
  }

  public static ThresholdMethod parse(String text) {
    String t = text.trim().toLowerCase(Locale.ROOT);
    for (ThresholdMethod m : values()) {
      if (m.spelling.equals(t)) {
        return m;
      }
    }
    throw new IllegalArgumentException(
        "use one of "
            + Arrays.stream(values())
                .map(ThresholdMethod::spelling)
                .collect(Collectors.joining(", ")));
  }
}
