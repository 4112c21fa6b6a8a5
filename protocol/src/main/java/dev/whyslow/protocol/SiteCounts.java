package dev.whyslow.protocol;

import java.util.Arrays;

/**
 * What one run saw at one site: how many sampled evaluations reached the site ({@code observed})
 * and, per predicate of the site's kind, how many of those found it true. CBI's "P observed" is
 * {@code observed > 0}; "P true" is {@code trueCounts[i] > 0}.
 */
public record SiteCounts(long siteKey, long observed, long[] trueCounts) {

  public SiteCounts {
    if (observed < 0) {
      throw new IllegalArgumentException("observed count must be >= 0, was " + observed);
    }
    for (long c : trueCounts) {
      if (c < 0 || c > observed) {
        throw new IllegalArgumentException(
            "true count "
                + c
                + " outside [0, observed="
                + observed
                + "] at site "
                + SiteKeys.format(siteKey));
      }
    }
  }

  public long trueCount(int predicate) {
    return trueCounts[predicate];
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof SiteCounts other
        && siteKey == other.siteKey
        && observed == other.observed
        && Arrays.equals(trueCounts, other.trueCounts);
  }

  @Override
  public int hashCode() {
    return Long.hashCode(siteKey) * 31 + Arrays.hashCode(trueCounts);
  }

  @Override
  public String toString() {
    return SiteKeys.format(siteKey)
        + "{observed="
        + observed
        + ", true="
        + Arrays.toString(trueCounts)
        + "}";
  }
}
