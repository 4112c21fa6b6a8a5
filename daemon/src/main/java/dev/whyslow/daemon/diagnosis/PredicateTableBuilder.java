package dev.whyslow.daemon.diagnosis;

import dev.whyslow.protocol.Site;
import java.util.Arrays;
import java.util.Objects;
import java.util.TreeSet;

/**
 * Builds a {@link PredicateTable} run by run without materialising a cell per (run, predicate):
 * each run appends its observed sites and its sampled-true predicates to CSR columns. {@link
 * PredicateTable#from} uses it for stored runs; tests and benchmarks use it for synthetic data.
 *
 * <pre>{@code
 * PredicateTableBuilder b = PredicateTable.builder(PredicateFilter.all());
 * int loop = b.addSite(site.key(), site, site.kind().predicateCount());
 * b.beginRun(runId, true);          // a failing run
 * b.addTrue(loop, SiteKind.TAKEN, 42); // also marks the site observed
 * b.endRun();
 * PredicateTable table = b.build();
 * }</pre>
 */
public final class PredicateTableBuilder {
  private final PredicateFilter filter;

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

  // The open run: its sites and (predicate << 32 | count) pairs, sorted and merged at endRun.
  private boolean inRun;
  private int[] runSites = new int[256];
  private int runSiteCount;
  private long[] runTrue = new long[256];
  private int runTrueCount;

  PredicateTableBuilder(PredicateFilter filter) {
    this.filter = Objects.requireNonNull(filter, "filter");
    siteFirstPredicate.add(0);
    observedStart.add(0);
    trueStart.add(0);
  }

  /**
   * Adds a site and its {@code predicateCount} predicates; returns its dense site index. {@code
   * site} is the metadata, or null when the daemon has none for {@code key}.
   */
  public int addSite(long key, Site site, int predicateCount) {
    if (predicateCount <= 0) {
      throw new IllegalArgumentException(
          "site " + key + " needs at least one predicate, got " + predicateCount);
    }
    if (siteCount == siteKeys.length) {
      siteKeys = Arrays.copyOf(siteKeys, siteCount * 2);
      sites = Arrays.copyOf(sites, siteCount * 2);
    }
    siteKeys[siteCount] = key;
    sites[siteCount] = site;
    this.predicateCount = Math.addExact(this.predicateCount, predicateCount);
    siteFirstPredicate.add(this.predicateCount);
    return siteCount++;
  }

  /** Starts a labelled run; {@code failing} is true for FAILURE and false for SUCCESS. */
  public void beginRun(long runId, boolean failing) {
    if (inRun) {
      throw new IllegalStateException("beginRun called before endRun of the previous run");
    }
    inRun = true;
    runSiteCount = 0;
    runTrueCount = 0;
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
    if (runSiteCount == runSites.length) {
      runSites = Arrays.copyOf(runSites, runSiteCount * 2);
    }
    runSites[runSiteCount++] = site;
  }

  /**
   * Records that predicate {@code predicateIndex} of {@code site} was sampled true {@code count}
   * times in the open run (zero is ignored); the site counts as observed.
   */
  public void addTrue(int site, int predicateIndex, long count) {
    checkSite(site);
    int first = siteFirstPredicate.get(site);
    int width = siteFirstPredicate.get(site + 1) - first;
    if (predicateIndex < 0 || predicateIndex >= width) {
      throw new IllegalArgumentException(
          "predicate index " + predicateIndex + " outside [0, " + width + ") at site " + site);
    }
    if (count < 0) {
      throw new IllegalArgumentException("true count must be >= 0, was " + count);
    }
    observe(site);
    if (count == 0) {
      return;
    }
    if (runTrueCount == runTrue.length) {
      runTrue = Arrays.copyOf(runTrue, runTrueCount * 2);
    }
    // Counts beyond 2^31-1 in one run are clamped; no model could sweep that many tokens anyway.
    long clamped = Math.min(count, Integer.MAX_VALUE);
    runTrue[runTrueCount++] = ((long) (first + predicateIndex) << 32) | clamped;
  }

  /** Closes the open run: sorts its entries and merges duplicates. */
  public void endRun() {
    if (!inRun) {
      throw new IllegalStateException("endRun called without beginRun");
    }
    inRun = false;
    Arrays.sort(runSites, 0, runSiteCount);
    for (int i = 0; i < runSiteCount; i++) {
      if (i == 0 || runSites[i] != runSites[i - 1]) {
        observedSite.add(runSites[i]);
      }
    }
    Arrays.sort(runTrue, 0, runTrueCount);
    for (int i = 0; i < runTrueCount; ) {
      int predicate = (int) (runTrue[i] >>> 32);
      long sum = 0;
      for (; i < runTrueCount && (int) (runTrue[i] >>> 32) == predicate; i++) {
        sum += runTrue[i] & 0xffffffffL;
      }
      truePredicate.add(predicate);
      trueCount.add((int) Math.min(sum, Integer.MAX_VALUE));
    }
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

  public PredicateTable build() {
    if (inRun) {
      throw new IllegalStateException("build called while a run is open; call endRun first");
    }
    double[] rates = new double[samplingRates.size()];
    int i = 0;
    for (double rate : samplingRates) {
      rates[i++] = rate;
    }
    return new PredicateTable(
        filter,
        Arrays.copyOf(runIds, runCount),
        Arrays.copyOf(failing, runCount),
        ignoredRuns,
        Arrays.copyOf(siteKeys, siteCount),
        Arrays.copyOf(sites, siteCount),
        siteFirstPredicate.toArray(),
        observedStart.toArray(),
        observedSite.toArray(),
        trueStart.toArray(),
        truePredicate.toArray(),
        trueCount.toArray(),
        rates,
        skippedEntries);
  }

  private void checkSite(int site) {
    if (!inRun) {
      throw new IllegalStateException("call beginRun before recording what a run observed");
    }
    if (site < 0 || site >= siteCount) {
      throw new IllegalArgumentException(
          "site index " + site + " outside [0, " + siteCount + "); add the site first");
    }
  }
}
