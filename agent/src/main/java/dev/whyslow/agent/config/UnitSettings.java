package dev.whyslow.agent.config;

import java.util.List;

/**
 * How the agent finds, times and types units of work ({@code units.*} keys).
 *
 * @param enabled {@code units=on}: entry points, wait loops and declared units are timed
 * @param trainingUnits traced units needed before the unit types are trained
 * @param trainingShare share of units traced while training, in [0, 1]
 * @param statsIntervalMillis how often per-type histograms are sent
 * @param allRuns {@code units.runs=all}: every unit run is sent, not only those with samples or a
 *     violation
 * @param watchdogIntervalMillis how often running units are checked against their thresholds
 * @param declared methods that are units, as {@code com.acme.Worker#process}
 * @param auditShare share of units traced after training to measure the inference, in [0, 1]
 * @param depthInEveryFrame {@code units.depth=all}: every method of a unit counts its frame, even
 *     once the trained guards tell types apart by site alone; {@code auto}, the default, then
 *     counts only the guards' frames, as sampling windows do whatever this says
 * @param wholeUnits {@code units.choice=unit}: once the guards infer by site, whole units are
 *     chosen for sampling (one in {@code 1 / share}) instead of single invocations, and every other
 *     unit runs the code javac wrote; {@code invocation}, the default, chooses at every entry
 */
public record UnitSettings(
    boolean enabled,
    int trainingUnits,
    double trainingShare,
    long statsIntervalMillis,
    boolean allRuns,
    long watchdogIntervalMillis,
    List<String> declared,
    double auditShare,
    boolean depthInEveryFrame,
    boolean wholeUnits) {

  public UnitSettings {
    declared = List.copyOf(declared);
  }

  /** The defaults, as documented in {@code config/agent.properties}. */
  public static UnitSettings defaults() {
    return new UnitSettings(true, 400, 0.25, 10_000, false, 1_000, List.of(), 0.0, false, false);
  }
}
