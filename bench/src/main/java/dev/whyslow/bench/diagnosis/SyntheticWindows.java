package dev.whyslow.bench.diagnosis;

import dev.whyslow.protocol.Label;
import dev.whyslow.protocol.Run;
import dev.whyslow.protocol.RunKind;
import dev.whyslow.protocol.Site;
import dev.whyslow.protocol.SiteCounts;
import dev.whyslow.protocol.SiteKeys;
import dev.whyslow.protocol.SiteKind;
import dev.whyslow.storage.RunOrigin;
import dev.whyslow.storage.StoredRun;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * Synthetic diagnosis windows at the budgets' sizes, as the store would hand them over: stored runs
 * plus site metadata. Runs observe a fraction of the sites, a quarter of what each run observes
 * comes from a hot 2% of the sites, and planted bugs give the models something to find.
 * Deterministic for a seed.
 */
public final class SyntheticWindows {
  private static final RunOrigin ORIGIN = new RunOrigin("bench", "bench-1", "1.0");

  /** Stored runs and the metadata of their sites. */
  public record Window(List<StoredRun> runs, Map<Long, Site> sites, long tokens) {}

  private SyntheticWindows() {}

  /**
   * CBI's budget: {@code runs} runs over {@code sites} two-way branch sites (so twice as many
   * predicates), each run observing {@code sitesPerRun} distinct sites once or twice (a sampled
   * evaluation is rare at 1/10000). 30% of runs fail; five planted branches are taken in 15% to 55%
   * of the failing runs and 1% of the successful ones.
   */
  public static Window cbi(int runs, int sites, int sitesPerRun, long seed) {
    SplittableRandom random = new SplittableRandom(seed);
    long[] keys = keys(sites, SiteKind.BRANCH);
    Map<Long, Site> metadata = metadata(keys, SiteKind.BRANCH);
    List<StoredRun> out = new ArrayList<>(runs);
    Picker picker = new Picker(sites);
    long tokens = 0;
    for (int r = 0; r < runs; r++) {
      boolean failing = random.nextDouble() < 0.3;
      List<SiteCounts> counts = new ArrayList<>(sitesPerRun + 5);
      int n = picker.pick(random, sitesPerRun);
      for (int i = 0; i < n; i++) {
        int s = picker.chosen[i];
        if (s < 5) {
          continue; // planted sites are decided below
        }
        double u = random.nextDouble();
        long taken = u < 0.45 ? 1 + random.nextInt(2) : u < 0.9 ? 0 : 1;
        long notTaken = u < 0.45 ? 0 : u < 0.9 ? 1 + random.nextInt(2) : 1;
        counts.add(new SiteCounts(keys[s], taken + notTaken, new long[] {taken, notTaken}));
        tokens += taken + notTaken;
      }
      for (int bug = 0; bug < 5; bug++) {
        boolean taken = random.nextDouble() < (failing ? 0.15 + 0.1 * bug : 0.01);
        counts.add(new SiteCounts(keys[bug], 1, new long[] {taken ? 1 : 0, taken ? 0 : 1}));
        tokens++;
      }
      out.add(stored(r, failing, counts));
    }
    return new Window(out, metadata, tokens);
  }

  /**
   * ΔLDA's budget: {@code runs} runs over {@code sites} loop-branch sites (twice as many
   * predicates), each run entering {@code sitesPerRun} loops once or twice; "taken" counts sampled
   * iterations and "not taken" loop exits, about {@code tokensPerRun} in all per run. Half the runs
   * fail, and failing runs iterate a planted loop (site 0) 300 more times.
   */
  public static Window deltaLda(int runs, int sites, int sitesPerRun, int tokensPerRun, long seed) {
    SplittableRandom random = new SplittableRandom(seed);
    long[] keys = keys(sites, SiteKind.LOOP_BRANCH);
    Map<Long, Site> metadata = metadata(keys, SiteKind.LOOP_BRANCH);
    // A loop entered e times (1 or 2, mean 1.5) brings about e * mean iterations and e exits.
    int mean = Math.max(1, (int) Math.round(tokensPerRun / (1.5 * sitesPerRun) - 1));
    List<StoredRun> out = new ArrayList<>(runs);
    Picker picker = new Picker(sites);
    long tokens = 0;
    for (int r = 0; r < runs; r++) {
      boolean failing = r % 2 == 0;
      List<SiteCounts> counts = new ArrayList<>(sitesPerRun);
      int n = picker.pick(random, sitesPerRun);
      for (int i = 0; i < n; i++) {
        int s = picker.chosen[i];
        int entries = 1 + random.nextInt(2);
        long iterations = random.nextInt(2 * mean * entries + 1) + (s == 0 && failing ? 300 : 0);
        counts.add(new SiteCounts(keys[s], iterations + entries, new long[] {iterations, entries}));
        tokens += iterations + entries;
      }
      out.add(stored(r, failing, counts));
    }
    return new Window(out, metadata, tokens);
  }

  private static StoredRun stored(int r, boolean failing, List<SiteCounts> counts) {
    Label label = failing ? Label.FAILURE : Label.SUCCESS;
    Run run = new Run(r + 1, RunKind.UNIT, 1_000L * r, 5_000_000, label, "request", 1e-4, counts);
    return new StoredRun(r + 1, ORIGIN, run);
  }

  private static long[] keys(int sites, SiteKind kind) {
    long[] keys = new long[sites];
    for (int s = 0; s < sites; s++) {
      keys[s] = SiteKeys.key("com.example.C" + s / 20, "m" + s / 5, "()V", s, kind);
    }
    return keys;
  }

  private static Map<Long, Site> metadata(long[] keys, SiteKind kind) {
    Map<Long, Site> sites = new HashMap<>();
    for (int s = 0; s < keys.length; s++) {
      sites.put(
          keys[s],
          new Site(
              keys[s],
              "com.example.C" + s / 20,
              "m" + s / 5,
              "()V",
              "C" + s / 20 + ".java",
              10 + s % 20,
              kind,
              kind == SiteKind.LOOP_BRANCH ? s % 5 : -1,
              ""));
    }
    return sites;
  }

  /** Picks distinct sites for a run, a quarter of them among the hot first 2%. */
  private static final class Picker {
    final int[] chosen;
    private final boolean[] taken;
    private final int sites;

    Picker(int sites) {
      this.sites = sites;
      this.chosen = new int[sites];
      this.taken = new boolean[sites];
    }

    int pick(SplittableRandom random, int count) {
      int hot = Math.max(1, sites / 50);
      int n = 0;
      while (n < Math.min(count / 4, hot)) {
        n = add(random.nextInt(hot), n);
      }
      while (n < Math.min(count, sites)) {
        n = add(random.nextInt(sites), n);
      }
      for (int i = 0; i < n; i++) {
        taken[chosen[i]] = false;
      }
      return n;
    }

    private int add(int site, int n) {
      if (taken[site]) {
        return n;
      }
      taken[site] = true;
      chosen[n] = site;
      return n + 1;
    }
  }
}
