package dev.whyslow.agent.units.training;

/**
 * The knobs of unit-type training: where to cut the clustering and the caps that keep training
 * affordable on huge or numerous traces. {@link #defaults()} explains each default.
 *
 * @param distanceThreshold clustering stops when the closest two clusters are farther apart than
 *     this (centred unit distance, 0..1)
 * @param maxTypes unit types at most, 1..64 (bits of a long); beyond, the closest clusters merge
 * @param maxDistinctTraces distinct call trees clustered per training; rarer ones are assigned to
 *     the nearest type afterwards
 * @param maxPathsPerUnit distinct root-to-leaf paths kept per unit (the first ones in call order)
 * @param maxPathLength frames kept per path, from the unit's start, 1..64
 * @param maxCallsPerTrace method entries read per trace; the rest of a huge trace is ignored
 * @param maxDepth deepest relative depth a context can have in the context table
 * @param maxGuards guard methods at most, over all types
 * @param maxGuardsPerType guards chosen to name one type, at most
 */
public record TrainingSettings(
    double distanceThreshold,
    int maxTypes,
    int maxDistinctTraces,
    int maxPathsPerUnit,
    int maxPathLength,
    int maxCallsPerTrace,
    int maxDepth,
    int maxGuards,
    int maxGuardsPerType) {
  public TrainingSettings {
    if (!(distanceThreshold >= 0 && distanceThreshold <= 1)) {
      throw new IllegalArgumentException(
          "distanceThreshold must be in [0, 1], was " + distanceThreshold);
    }
    requireRange("maxTypes", maxTypes, 1, 64);
    requireRange("maxDistinctTraces", maxDistinctTraces, 1, 100_000);
    requireRange("maxPathsPerUnit", maxPathsPerUnit, 1, 10_000);
    requireRange("maxPathLength", maxPathLength, 1, 64);
    requireRange("maxCallsPerTrace", maxCallsPerTrace, 1, 100_000_000);
    requireRange("maxDepth", maxDepth, 1, 4096);
    requireRange("maxGuards", maxGuards, 0, 4096);
    requireRange("maxGuardsPerType", maxGuardsPerType, 1, 64);
  }

  /**
   * Defaults: cut at 0.3 (units of one kind that differ by optional calls or loop counts sit below
   * 0.15, different kinds sharing helpers above 0.4 in our synthetic and shop traces); 64 types;
   * 128 distinct trees of at most 32 paths of at most 64 frames (bounds the pairwise work to about
   * 10^9 simple steps in the worst case, far less in practice); 50 000 calls per trace; contexts
   * down to depth 64; 32 guard methods, 3 per type.
   */
  public static TrainingSettings defaults() {
    return new TrainingSettings(0.1, 64, 128, 32, 64, 50_000, 64, 32, 3);
  }

  /** The same settings with another cut. */
  public TrainingSettings withDistanceThreshold(double threshold) {
    return new TrainingSettings(
        threshold,
        maxTypes,
        maxDistinctTraces,
        maxPathsPerUnit,
        maxPathLength,
        maxCallsPerTrace,
        maxDepth,
        maxGuards,
        maxGuardsPerType);
  }

  private static void requireRange(String name, int value, int min, int max) {
    if (value < min || value > max) {
      throw new IllegalArgumentException(
          name + " must be in [" + min + ", " + max + "], was " + value);
    }
  }
}
