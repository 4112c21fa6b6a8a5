package dev.whyslow.examples.eval;

import dev.whyslow.protocol.Label;
import dev.whyslow.protocol.Site;
import dev.whyslow.protocol.SiteKind;
import dev.whyslow.storage.StoredRun;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * Sampled runs made offline from a pool of distinct rate-1 runs ({@link SamplingEmulator}), so a
 * setting with 1000 runs per side needs no 2000 JVMs. Each draw is thinned afresh, so a run drawn
 * twice is sampled differently each time, as two runs of one input would be.
 */
final class EmulatedRuns {
  private final List<StoredRun> good;
  private final List<StoredRun> bad;
  private final Map<Long, SiteKind> kinds = new HashMap<>();
  private final double rate;
  private final int sameInputsUpTo;

  /**
   * @param pool the rate-1 runs of both sides, whose instance names carry their seeds
   * @param sites the site table the runs were recorded with
   * @param rate the sampling rate to emulate
   * @param sameInputsUpTo up to this many runs per side, use the inputs with the lowest seeds
   */
  EmulatedRuns(List<StoredRun> pool, Map<Long, Site> sites, double rate, int sameInputsUpTo) {
    this.good = side(pool, Label.SUCCESS);
    this.bad = side(pool, Label.FAILURE);
    sites.forEach((key, site) -> kinds.put(key, site.kind()));
    this.rate = rate;
    this.sameInputsUpTo = sameInputsUpTo;
  }

  /** {@code perSide} good and {@code perSide} bad emulated runs, good first. */
  List<StoredRun> draw(int perSide, SplittableRandom random) {
    List<StoredRun> runs = new ArrayList<>();
    long nextId = 1;
    for (StoredRun run : draw(good, perSide, random)) {
      runs.add(SamplingEmulator.thin(run, rate, kinds, random, nextId++));
    }
    for (StoredRun run : draw(bad, perSide, random)) {
      runs.add(SamplingEmulator.thin(run, rate, kinds, random, nextId++));
    }
    return runs;
  }

  /**
   * {@code count} runs of one side: the first inputs by seed up to {@code sameInputsUpTo} (so the
   * emulated column of the real runs' size uses the same inputs as they did), a random subset of
   * the pool when it is larger, and draws with replacement when the pool is smaller.
   */
  private List<StoredRun> draw(List<StoredRun> side, int count, SplittableRandom random) {
    if (count <= sameInputsUpTo && count <= side.size()) {
      return side.subList(0, count);
    }
    List<StoredRun> drawn = new ArrayList<>();
    if (count <= side.size()) {
      List<StoredRun> remaining = new ArrayList<>(side);
      for (int i = 0; i < count; i++) {
        drawn.add(remaining.remove(random.nextInt(remaining.size())));
      }
      return drawn;
    }
    for (int i = 0; i < count; i++) {
      drawn.add(side.get(random.nextInt(side.size())));
    }
    return drawn;
  }

  /** The seed of one trial's emulation: fixed, so the emulated columns are reproducible. */
  static long trialSeed(Workload workload, int count, int trial) {
    return (workload.name().hashCode() * 1_000_003L + count) * 1_000_003L + trial;
  }

  /** One side's runs ordered by input seed. */
  static List<StoredRun> side(List<StoredRun> runs, Label label) {
    List<StoredRun> side = new ArrayList<>();
    for (StoredRun run : runs) {
      if (run.label() == label) {
        side.add(run);
      }
    }
    side.sort(Comparator.comparingLong(EmulatedRuns::seedOf));
    return side;
  }

  /** The input seed, from the instance name the launcher gave the run ({@code bad-7}). */
  static long seedOf(StoredRun run) {
    String instance = run.origin().instance();
    return Long.parseLong(instance.substring(instance.indexOf('-') + 1));
  }
}
