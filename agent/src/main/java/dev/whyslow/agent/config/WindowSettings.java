package dev.whyslow.agent.config;

/**
 * Sampling windows: instrumented methods run their copies with probes only while a window is open,
 * and their own code otherwise; inside windows the rate is the configured one over the duty, so the
 * share of evaluations recorded stays the configured rate. Windows are used only at rates of {@link
 * #MAX_RATE_SHARE} of the duty or less: above that the probes cost more than the windows save, and
 * every evaluation is sampled on its own as before.
 *
 * @param enabled {@code sampling.windows}
 * @param duty {@code sampling.window.duty}: the share of time a window is open, in (0, 1]
 * @param lengthMicros {@code sampling.window.length}: how long each window stays open. Short
 *     windows spread each run's samples over more of it: a batch job or request shorter than the
 *     gap between windows is otherwise sampled all or nothing
 */
public record WindowSettings(boolean enabled, double duty, long lengthMicros) {
  /** Windows only below this share of the duty: the in-window rate stays at most 1/10. */
  public static final double MAX_RATE_SHARE = 0.1;

  /** Whether windows are used at this sampling rate. */
  public boolean usedAt(double rate) {
    return enabled && duty < 1.0 && rate <= duty * MAX_RATE_SHARE;
  }
}
