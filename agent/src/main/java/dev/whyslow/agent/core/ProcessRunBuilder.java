package dev.whyslow.agent.core;

import dev.whyslow.agent.bootstrap.RunCounts;
import dev.whyslow.protocol.Label;
import dev.whyslow.protocol.Run;
import dev.whyslow.protocol.RunKind;
import dev.whyslow.protocol.SiteCounts;
import java.util.ArrayList;
import java.util.List;

/** Turns the process run's counters into the {@link Run} the daemon stores. */
public final class ProcessRunBuilder {
  private ProcessRunBuilder() {}

  /** The counts of one registered site in {@code counts}; observed is 0 if it was never sampled. */
  public static SiteCounts countsOf(SiteRegistry.Entry entry, RunCounts counts) {
    int predicates = entry.site().kind().predicateCount();
    long[] trueCounts = new long[predicates];
    // Predicates first, observed last: each sample bumps observed before its predicates, so this
    // order never sees a predicate count above observed while threads are still running.
    for (int i = 0; i < predicates; i++) {
      trueCounts[i] = counts.get(entry.slot() + 1 + i);
    }
    long observed = counts.get(entry.slot());
    for (int i = 0; i < predicates; i++) {
      trueCounts[i] = Math.min(trueCounts[i], observed);
    }
    return new SiteCounts(entry.site().key(), observed, trueCounts);
  }

  /**
   * The process run: every registered site that a sampled evaluation reached, with its counts.
   *
   * @param durationNanos how long the JVM has run
   */
  public static Run build(
      long sequence,
      List<SiteRegistry.Entry> sites,
      RunCounts counts,
      Label label,
      double samplingRate,
      long startEpochMillis,
      long durationNanos) {
    List<SiteCounts> observed = new ArrayList<>();
    for (SiteRegistry.Entry entry : sites) {
      SiteCounts c = countsOf(entry, counts);
      if (c.observed() > 0) {
        observed.add(c);
      }
    }
    return new Run(
        sequence,
        RunKind.PROCESS,
        startEpochMillis,
        Math.max(0, durationNanos),
        label,
        "",
        samplingRate,
        observed);
  }
}
