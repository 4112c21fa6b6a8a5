package dev.whyslow.agent.config;

/**
 * Sampling windows ({@code sampling.windows}, {@code sampling.window}, {@code
 * sampling.window.every}): once the service has settled, the instrumented methods use their probes
 * for one window of every period and run their own code, as written, in between; inside a window
 * the rate and the share of invocations that run their probes are raised by period over window (the
 * share at most to all), so that as many invocations are sampled over time, with as many samples
 * each, as at the configured rate throughout.
 *
 * @param enabled {@code sampling.windows=on}; off by default (bench/LATENCY.md says why)
 * @param windowMillis how long the probes stay in, each period
 * @param everyMillis the period: one window starts every this long; more than the window
 */
public record SamplingWindowSettings(boolean enabled, long windowMillis, long everyMillis) {
  /** The default window: long enough for a unit type's runs to gather samples. */
  public static final long DEFAULT_WINDOW_MILLIS = 30_000;

  /** The default period: the probes are in a tenth of the time. */
  public static final long DEFAULT_EVERY_MILLIS = 300_000;

  public SamplingWindowSettings {
    if (enabled && !(windowMillis > 0 && windowMillis < everyMillis)) {
      throw new IllegalArgumentException(
          "sampling.window must be > 0 and shorter than sampling.window.every, was "
              + windowMillis
              + " ms every "
              + everyMillis
              + " ms");
    }
  }

  /** The defaults, as documented in {@code config/agent.properties}: off. */
  public static SamplingWindowSettings defaults() {
    return off();
  }

  /** Off: the probes stay in all the time. */
  public static SamplingWindowSettings off() {
    return new SamplingWindowSettings(false, DEFAULT_WINDOW_MILLIS, DEFAULT_EVERY_MILLIS);
  }

  /** The raise of the rate and the share inside a window, before any cap: period over window. */
  public double raise() {
    return (double) everyMillis / windowMillis;
  }

  /** As {@code sampling.windows} and its keys spell it, e.g. {@code 30s every 300s}. */
  @Override
  public String toString() {
    return enabled ? windowMillis / 1000.0 + "s every " + everyMillis / 1000.0 + "s" : "off";
  }
}
