package dev.whyslow.daemon.diagnosis;

import dev.whyslow.protocol.Label;
import dev.whyslow.protocol.Site;
import dev.whyslow.protocol.SiteCounts;
import dev.whyslow.protocol.SiteKind;
import dev.whyslow.storage.StoredRun;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * A synthetic window with one planted failure predictor among noise: loop branch {@link #BUG_SITE}
 * is "taken" (iterates) many times in almost every failing run and rarely in successful ones, while
 * {@link #NOISE_SITES} loop branches behave the same in both classes.
 */
final class PlantedBug {
  static final long BUG_SITE = 7;
  static final int NOISE_SITES = 120;

  final List<StoredRun> runs = new ArrayList<>();
  final Map<Long, Site> sites = new HashMap<>();

  PlantedBug(int failing, int success, long seed) {
    SplittableRandom random = new SplittableRandom(seed);
    sites.put(BUG_SITE, TestRuns.site(BUG_SITE, SiteKind.LOOP_BRANCH));
    for (long k = 100; k < 100 + NOISE_SITES; k++) {
      sites.put(k, TestRuns.site(k, SiteKind.LOOP_BRANCH));
    }
    long id = 1;
    for (int i = 0; i < failing + success; i++) {
      boolean fails = i < failing;
      runs.add(TestRuns.run(id++, fails ? Label.FAILURE : Label.SUCCESS, counts(fails, random)));
    }
  }

  Map<Long, Site> sites() {
    return sites;
  }

  static List<SiteCounts> counts(boolean failing, SplittableRandom random) {
    List<SiteCounts> out = new ArrayList<>();
    // The bug: 20-40 extra iterations in 95% of failing runs, in 5% of successful runs one or two.
    if (failing && random.nextDouble() < 0.95) {
      out.add(TestRuns.branch(BUG_SITE, 20 + random.nextInt(21), random.nextInt(2)));
    } else if (!failing && random.nextDouble() < 0.05) {
      out.add(TestRuns.branch(BUG_SITE, 1 + random.nextInt(2), 1));
    } else if (random.nextDouble() < 0.8) {
      out.add(TestRuns.branch(BUG_SITE, 0, 1));
    }
    for (long k = 100; k < 100 + NOISE_SITES; k++) {
      if (random.nextDouble() < 0.5) {
        // Noise sites differ from each other in volume, not between the classes.
        int volume = 1 + (int) (k % 7);
        out.add(TestRuns.branch(k, random.nextInt(volume + 1), random.nextInt(2)));
      }
    }
    out.removeIf(c -> c.observed() == 0);
    return out;
  }
}
