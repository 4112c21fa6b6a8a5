package dev.whyslow.daemon.diagnosis;

import dev.whyslow.protocol.Site;
import java.util.Arrays;
import java.util.Objects;
import java.util.TreeSet;

/**
 * Builds a {@link PredicateTable} run by run without materialising a cell per (run, predicate):
 * each run appends its observed sites and its sampled-true predicates to CSR columns. {@link
 * PredicateTable#from} uses it for stored runs; tests and benchmarks use it for synthetic data.
 * Sites may be added in any order: {@link #build} numbers them by key, so the same data gives the
 * same table.
 *
 * <pre>{@code
 * PredicateTableBuilder b = PredicateTable.builder(PredicateFilter.all());
 * int loop = b.addSite(site.key(), site, site.kind().predicateCount());
 * b.beginRun(runId, true);             // a failing run
 * b.addTrue(loop, SiteKind.TAKEN, 42); // also marks the site observed
 * b.endRun();
 * PredicateTable table = b.build();
 * }</pre>
 */
public final class PredicateTableBuilder {
  private final PredicateFilter filter;

  private final LongIntMap siteIndex = new LongIntMap(1024);
  private final GrowableInts siteFirstPredicate = new GrowableInts(1024);
  private long[] siteKeys = new long[1024];
  private Site[] sites = new Site[1024];
  private int siteCount;
  private int predicateCount;

  private final GrowableInts observedStart = new GrowableInts(1024);
  private final GrowableInts observedSite = new GrowableInts(1 << 16);
  private final GrowableInts trueStart = new GrowableInts(1024);
  private final GrowableInts truePredicate = new GrowableInts(1 << 16);
  private final GrowableInts trueCount = new GrowableInts(1 << 16);
  private long[] runIds = new long[1024];
  private boolean[] failing = new boolean[1024];
  private int runCount;
  private int ignoredRuns;
  private long skippedEntries;
  private final TreeSet<Double> samplingRates = new TreeSet<>();

  // Duplicates within the open run are found by stamping sites and predicates with the run's
  // number (runCount + 1) instead of sorting each run: O(1) per entry.
  private boolean inRun;
  private boolean built;
  private int[] siteStamp = new int[1024];
  private int[] predicateStamp = new int[2048];
  private int[] predicateSlot = new int[2048];

  PredicateTableBuilder(PredicateFilter filter) {
    this.filter = Objects.requireNonNull(filter, "filter");
    siteFirstPredicate.add(0);
    observedStart.add(0);
    trueStart.add(0);
  }

  /**
   * Adds a site and its {@code predicateCount} predicates; returns its index for {@link #observe}
   * and {@link #addTrue}. {@code site} is the metadata, or null when the daemon has none.
   */
  public int addSite(long key, Site site, int predicateCount) {
    if (predicateCount <= 0) {
      throw new IllegalArgumentException(
          "site " + key + " needs at least one predicate, got " + predicateCount);
    }
    if (siteIndex.get(key) >= 0) {
      throw new IllegalArgumentException("site " + key + " was already added");
    }
    if (siteCount == siteKeys.length) {
      siteKeys = Arrays.copyOf(siteKeys, siteCount * 2);
      sites = Arrays.copyOf(sites, siteCount * 2);
      siteStamp = Arrays.copyOf(siteStamp, siteCount * 2);
    }
    int predicates = Math.addExact(this.predicateCount, predicateCount);
    if (predicates > predicateStamp.length) {
      int capacity = Math.max(predicates, predicateStamp.length * 2);
      predicateStamp = Arrays.copyOf(predicateStamp, capacity);
      predicateSlot = Arrays.copyOf(predicateSlot, capacity);
    }
    siteKeys[siteCount] = key;
    sites[siteCount] = site;
    siteIndex.put(key, siteCount);
    this.predicateCount = predicates;
    siteFirstPredicate.add(predicates);
    return siteCount++;
  }

  /** The index of the site with this key, or -1 if it was not added. */
  public int siteIndex(long key) {
    return siteIndex.get(key);
  }

  /** The number of predicates of an added site. */
  public int predicateCount(int site) {
    return siteFirstPredicate.get(site + 1) - siteFirstPredicate.get(site);
  }

  /**
   * Makes room for about {@code entries} more (run, site) entries, so that big tables grow their
   * columns once instead of copying them again and again.
   */
  public void reserve(long entries) {
    int n = (int) Math.min(entries, Integer.MAX_VALUE - 16);
    observedSite.reserve(n);
    truePredicate.reserve(n);
    trueCount.reserve(n);
  }

  /** Starts a labelled run; {@code failing} is true for FAILURE and false for SUCCESS. */
  public void beginRun(long runId, boolean failing) {
    if (built) {
      throw new IllegalStateException("the table was already built; use a new builder");
    }
    if (inRun) {
      throw new IllegalStateException("beginRun called before endRun of the previous run");
    }
    inRun = true;
    if (runCount == runIds.length) {
      runIds = Arrays.copyOf(runIds, runCount * 2);
      this.failing = Arrays.copyOf(this.failing, runCount * 2);
    }
    runIds[runCount] = runId;
    this.failing[runCount] = failing;
  }

  /** Marks a site observed (sampled at least once) in the open run. */
  public void observe(int site) {
    checkSite(site);
    if (siteStamp[site] != runCount + 1) {
      siteStamp[site] = runCount + 1;
      observedSite.add(site);
    }
  }

  /**
   * Records that predicate {@code predicateIndex} of {@code site} was sampled true {@code count}
   * times in the open run (zero is ignored; repeated calls add up); the site counts as observed.
   */
  public void addTrue(int site, int predicateIndex, long count) {
    observe(site);
    int first = siteFirstPredicate.get(site);
    int width = siteFirstPredicate.get(site + 1) - first;
    if (predicateIndex < 0 || predicateIndex >= width) {
      throw new IllegalArgumentException(
          "predicate index " + predicateIndex + " outside [0, " + width + ") at site " + site);
    }
    if (count < 0) {
      throw new IllegalArgumentException("true count must be >= 0, was " + count);
    }
    if (count == 0) {
      return;
    }
    // Counts beyond 2^31-1 in one run are clamped; no model could sweep that many tokens anyway.
    int predicate = first + predicateIndex;
    if (predicateStamp[predicate] == runCount + 1) {
      int slot = predicateSlot[predicate];
      trueCount.set(slot, (int) Math.min(trueCount.get(slot) + count, Integer.MAX_VALUE));
    } else {
      predicateStamp[predicate] = runCount + 1;
      predicateSlot[predicate] = truePredicate.size();
      truePredicate.add(predicate);
      trueCount.add((int) Math.min(count, Integer.MAX_VALUE));
    }
  }

  /** Closes the open run. */
  public void endRun() {
    if (!inRun) {
      throw new IllegalStateException("endRun called without beginRun");
    }
    inRun = false;
    observedStart.add(observedSite.size());
    trueStart.add(truePredicate.size());
    runCount++;
  }

  /** Counts a run left out because it is labelled do-not-care. */
  public void ignoreRun() {
    ignoredRuns++;
  }

  /** Counts a site entry left out because it contradicts the site's metadata. */
  public void skipEntry() {
    skippedEntries++;
  }

  /** Remembers the sampling rate of a run, so reports can say when rates were mixed. */
  public void samplingRate(double rate) {
    samplingRates.add(rate);
  }

  /** The table; the builder hands its columns over and cannot be used afterwards. */
  public PredicateTable build() {
    if (inRun) {
      throw new IllegalStateException("build called while a run is open; call endRun first");
    }
    if (built) {
      throw new IllegalStateException("build was already called; use a new builder");
    }
    built = true;
    double[] rates = new double[samplingRates.size()];
    int i = 0;
    for (double rate : samplingRates) {
      rates[i++] = rate;
    }
    int[] firstPredicate = siteFirstPredicate.toArray();
    int[] observed = observedSite.toArray();
    int[] predicates = truePredicate.toArray();
    long[] keys = Arrays.copyOf(siteKeys, siteCount);
    Site[] metadata = Arrays.copyOf(sites, siteCount);
    long[] sorted = keys.clone();
    Arrays.sort(sorted);
    if (!Arrays.equals(sorted, keys)) {
      // Renumber sites (and their predicates) in key order, rewriting the columns in place.
      int[] newSite = new int[siteCount];
      int[] newFirst = new int[siteCount + 1];
      Site[] newMetadata = new Site[siteCount];
      for (int s = 0; s < siteCount; s++) {
        int old = siteIndex.get(sorted[s]);
        newSite[old] = s;
        newMetadata[s] = metadata[old];
        newFirst[s + 1] = newFirst[s] + firstPredicate[old + 1] - firstPredicate[old];
      }
      int[] newPredicate = new int[predicateCount];
      for (int old = 0; old < siteCount; old++) {
        for (int p = firstPredicate[old]; p < firstPredicate[old + 1]; p++) {
          newPredicate[p] = newFirst[newSite[old]] + p - firstPredicate[old];
        }
      }
      for (int k = 0; k < observed.length; k++) {
        observed[k] = newSite[observed[k]];
      }
      for (int k = 0; k < predicates.length; k++) {
        predicates[k] = newPredicate[predicates[k]];
      }
      keys = sorted;
      metadata = newMetadata;
      firstPredicate = newFirst;
    }
    return new PredicateTable(
        filter,
        Arrays.copyOf(runIds, runCount),
        Arrays.copyOf(failing, runCount),
        ignoredRuns,
        keys,
        metadata,
        firstPredicate,
        observedStart.toArray(),
        observed,
        trueStart.toArray(),
        predicates,
        trueCount.toArray(),
        rates,
        skippedEntries);
  }

  private void checkSite(int site) {
    if (built) {
      throw new IllegalStateException("the table was already built; use a new builder");
    }
    if (!inRun) {
      throw new IllegalStateException("call beginRun before recording what a run observed");
    }
    if (site < 0 || site >= siteCount) {
      throw new IllegalArgumentException(
          "site index " + site + " outside [0, " + siteCount + "); add the site first");
    }
  }
}
