package dev.whyslow.daemon.diagnosis;

import dev.whyslow.protocol.Label;
import dev.whyslow.protocol.Run;
import dev.whyslow.protocol.Site;
import dev.whyslow.protocol.SiteCounts;
import dev.whyslow.storage.StoredRun;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * The models' input: labelled runs × predicates, sparse. Each predicate (site key, predicate index)
 * gets a dense id, the predicates of one site being contiguous. Per run the table keeps, in CSR
 * form, the sites it observed and the predicates it sampled true with their counts, so memory grows
 * with what runs saw, not with runs × predicates. Do-not-care runs are counted and left out.
 */
public final class PredicateTable {
  /** In {@link #from}'s site index: a site the filter leaves out. */
  private static final int REJECTED = -2;

  private final PredicateFilter filter;
  private final long[] runIds;
  private final boolean[] failing;
  private final int failingRuns;
  private final int ignoredRuns;
  private final long[] siteKeys;
  private final Site[] sites;
  private final int[] siteFirstPredicate;
  private final int[] predicateSite;
  private final int[] observedStart;
  private final int[] observedSite;
  private final int[] trueStart;
  private final int[] truePredicate;
  private final int[] trueCount;
  private final double[] samplingRates;
  private final long skippedEntries;

  // Whole-table aggregates: run counts per predicate and site, token totals per predicate.
  private final int[] failingTrueRuns;
  private final int[] successTrueRuns;
  private final long[] failingTrueTokens;
  private final long[] successTrueTokens;
  private final int[] failingObservedRuns;
  private final int[] successObservedRuns;

  PredicateTable(
      PredicateFilter filter,
      long[] runIds,
      boolean[] failing,
      int ignoredRuns,
      long[] siteKeys,
      Site[] sites,
      int[] siteFirstPredicate,
      int[] observedStart,
      int[] observedSite,
      int[] trueStart,
      int[] truePredicate,
      int[] trueCount,
      double[] samplingRates,
      long skippedEntries) {
    this.filter = filter;
    this.runIds = runIds;
    this.failing = failing;
    this.ignoredRuns = ignoredRuns;
    this.siteKeys = siteKeys;
    this.sites = sites;
    this.siteFirstPredicate = siteFirstPredicate;
    this.observedStart = observedStart;
    this.observedSite = observedSite;
    this.trueStart = trueStart;
    this.truePredicate = truePredicate;
    this.trueCount = trueCount;
    this.samplingRates = samplingRates;
    this.skippedEntries = skippedEntries;

    int predicates = siteFirstPredicate[siteKeys.length];
    predicateSite = new int[predicates];
    for (int s = 0; s < siteKeys.length; s++) {
      for (int p = siteFirstPredicate[s]; p < siteFirstPredicate[s + 1]; p++) {
        predicateSite[p] = s;
      }
    }
    failingTrueRuns = new int[predicates];
    successTrueRuns = new int[predicates];
    failingTrueTokens = new long[predicates];
    successTrueTokens = new long[predicates];
    failingObservedRuns = new int[siteKeys.length];
    successObservedRuns = new int[siteKeys.length];
    int f = 0;
    for (int r = 0; r < runIds.length; r++) {
      boolean fail = failing[r];
      f += fail ? 1 : 0;
      int[] observed = fail ? failingObservedRuns : successObservedRuns;
      for (int i = observedStart[r]; i < observedStart[r + 1]; i++) {
        observed[observedSite[i]]++;
      }
      int[] trueRuns = fail ? failingTrueRuns : successTrueRuns;
      long[] tokens = fail ? failingTrueTokens : successTrueTokens;
      for (int i = trueStart[r]; i < trueStart[r + 1]; i++) {
        trueRuns[truePredicate[i]]++;
        tokens[truePredicate[i]] += trueCount[i];
      }
    }
    failingRuns = f;
  }

  /** An empty builder; see {@link PredicateTableBuilder}. */
  public static PredicateTableBuilder builder(PredicateFilter filter) {
    return new PredicateTableBuilder(filter);
  }

  /**
   * Builds the table from stored runs. SUCCESS and FAILURE runs are kept, DO_NOT_CARE runs only
   * counted. A site's predicates enter when {@code filter} accepts the site; {@code sites} holds
   * the metadata by site key. A site missing from it has an unknown kind: it is kept only by a
   * filter that includes unknown sites, with as many predicates as its first entry reports. Entries
   * whose predicate count contradicts the site are skipped and counted.
   */
  public static PredicateTable from(
      List<StoredRun> runs, Map<Long, Site> sites, PredicateFilter filter) {
    PredicateTableBuilder builder = builder(filter);
    long entries = 0;
    for (StoredRun stored : runs) {
      entries += stored.label() == Label.DO_NOT_CARE ? 0 : stored.run().sites().size();
    }
    builder.reserve(entries);
    // One hash probe per (run, site) entry: site index, or REJECTED for sites the filter drops.
    LongIntMap index = new LongIntMap(4096);
    for (StoredRun stored : runs) {
      Label label = stored.label();
      if (label == Label.DO_NOT_CARE) {
        builder.ignoreRun();
        continue;
      }
      if (observedAnySite(stored.run())) {
        // A run that observed nothing (a unit that ran between sampling windows, say) says
        // nothing at any rate: its rate does not make the runs' rates differ.
        builder.samplingRate(stored.run().samplingRate());
      }
      builder.beginRun(stored.runId(), label == Label.FAILURE);
      for (SiteCounts counts : stored.run().sites()) {
        if (counts.observed() == 0) {
          continue;
        }
        long[] trueCounts = counts.trueCounts();
        int site = index.get(counts.siteKey());
        if (site == LongIntMap.MISSING) {
          site = firstSight(counts, sites.get(counts.siteKey()), filter, builder);
          index.put(counts.siteKey(), site);
        }
        if (site == REJECTED) {
          continue;
        }
        if (trueCounts.length != builder.predicateCount(site)) {
          builder.skipEntry();
          continue;
        }
        builder.observe(site);
        for (int i = 0; i < trueCounts.length; i++) {
          builder.addTrue(site, i, trueCounts[i]);
        }
      }
      builder.endRun();
    }
    return builder.build();
  }

  private static int firstSight(
      SiteCounts counts, Site site, PredicateFilter filter, PredicateTableBuilder builder) {
    if (!filter.accepts(site)) {
      return REJECTED;
    }
    int width = site != null ? site.kind().predicateCount() : counts.trueCounts().length;
    return width == 0 ? REJECTED : builder.addSite(counts.siteKey(), site, width);
  }

  public PredicateFilter filter() {
    return filter;
  }

  public int runCount() {
    return runIds.length;
  }

  public int failingRunCount() {
    return failingRuns;
  }

  public int successRunCount() {
    return runIds.length - failingRuns;
  }

  /** Do-not-care runs that were offered and left out. */
  public int ignoredRunCount() {
    return ignoredRuns;
  }

  /** Site entries left out because their predicate count contradicted the site's kind. */
  public long skippedEntryCount() {
    return skippedEntries;
  }

  private static boolean observedAnySite(Run run) {
    for (SiteCounts counts : run.sites()) {
      if (counts.observed() > 0) {
        return true;
      }
    }
    return false;
  }

  /** The distinct sampling rates of the runs that observed any site, ascending. */
  public List<Double> samplingRates() {
    List<Double> out = new ArrayList<>(samplingRates.length);
    for (double rate : samplingRates) {
      out.add(rate);
    }
    return Collections.unmodifiableList(out);
  }

  public long runId(int run) {
    return runIds[run];
  }

  public boolean isFailing(int run) {
    return failing[run];
  }

  public int siteCount() {
    return siteKeys.length;
  }

  public int predicateCount() {
    return predicateSite.length;
  }

  public long siteKey(int predicate) {
    return siteKeys[predicateSite[predicate]];
  }

  /** The predicate's index within its site, e.g. {@code SiteKind.TAKEN}. */
  public int predicateIndex(int predicate) {
    return predicate - siteFirstPredicate[predicateSite[predicate]];
  }

  /** The site's metadata, empty when the daemon has none. */
  public Optional<Site> site(int predicate) {
    return Optional.ofNullable(sites[predicateSite[predicate]]);
  }

  /** The dense id of (site key, predicate index), if the table has it. */
  public OptionalInt findPredicate(long siteKey, int predicateIndex) {
    for (int s = 0; s < siteKeys.length; s++) {
      if (siteKeys[s] == siteKey) {
        int p = siteFirstPredicate[s] + predicateIndex;
        return predicateIndex >= 0 && p < siteFirstPredicate[s + 1]
            ? OptionalInt.of(p)
            : OptionalInt.empty();
      }
    }
    return OptionalInt.empty();
  }

  /** The predicate's CBI counts over the whole table. */
  public PredicateCounts counts(int predicate) {
    int s = predicateSite[predicate];
    return new PredicateCounts(
        failingTrueRuns[predicate],
        successTrueRuns[predicate],
        failingObservedRuns[s],
        successObservedRuns[s],
        failingRuns,
        successRunCount());
  }

  /** Sampled-true evaluations of the predicate summed over failing runs: its ΔLDA tokens there. */
  public long failingTokens(int predicate) {
    return failingTrueTokens[predicate];
  }

  /** Sampled-true evaluations of the predicate summed over successful runs. */
  public long successTokens(int predicate) {
    return successTrueTokens[predicate];
  }

  /** Both directions' token totals when the predicate belongs to a two-way branch site. */
  public Optional<BranchTokens> branchTokens(int predicate) {
    int s = predicateSite[predicate];
    int first = siteFirstPredicate[s];
    if (siteFirstPredicate[s + 1] - first != 2) {
      return Optional.empty();
    }
    return Optional.of(
        new BranchTokens(
            failingTrueTokens[first],
            failingTrueTokens[first + 1],
            successTrueTokens[first],
            successTrueTokens[first + 1]));
  }

  // Package-private views for the models, which walk the CSR arrays directly. Callers never write.

  int siteIndex(int predicate) {
    return predicateSite[predicate];
  }

  int[] observedStart() {
    return observedStart;
  }

  int[] observedSite() {
    return observedSite;
  }

  int[] trueStart() {
    return trueStart;
  }

  int[] truePredicate() {
    return truePredicate;
  }

  int[] trueCount() {
    return trueCount;
  }

  int[] failingTrueRuns() {
    return failingTrueRuns;
  }

  int[] successTrueRuns() {
    return successTrueRuns;
  }

  int[] failingObservedRuns() {
    return failingObservedRuns;
  }

  int[] successObservedRuns() {
    return successObservedRuns;
  }
}
