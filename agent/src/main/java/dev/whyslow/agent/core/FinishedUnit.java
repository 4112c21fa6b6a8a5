package dev.whyslow.agent.core;

import dev.whyslow.agent.bootstrap.RunCounts;
import dev.whyslow.protocol.Label;
import dev.whyslow.protocol.Run;
import dev.whyslow.protocol.RunKind;
import dev.whyslow.protocol.SiteCounts;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * A unit that ended, with its sampled counts copied out of its thread's reusable counters: what the
 * application thread hands over at a unit's end, so that turning slots into sites and building the
 * {@link Run} happens on the agent's own thread.
 *
 * @param slotCounts {@code [slot, count, ...]} as {@code UnitRunCounts.toSlotCountPairs} gives it
 */
record FinishedUnit(
    long sequence,
    long startEpochMillis,
    long durationNanos,
    Label label,
    String unitType,
    double samplingRate,
    long[] slotCounts) {

  /** The unit's run, its sites in slot order; sites no sampled evaluation reached are left out. */
  Run toRun(SiteRegistry sites) {
    SortedCounts counts = new SortedCounts(slotCounts);
    List<SiteCounts> observed = new ArrayList<>();
    int lastSiteSlot = -1;
    for (int slot : counts.slots) {
      SiteRegistry.Entry entry = sites.entryCovering(slot);
      // A site's own slot and its predicates' are contiguous, so in slot order each site's slots
      // come together and one comparison finds the next site.
      if (entry == null || entry.slot() == lastSiteSlot) {
        continue;
      }
      lastSiteSlot = entry.slot();
      SiteCounts c = ProcessRunBuilder.countsOf(entry, counts);
      if (c.observed() > 0) {
        observed.add(c);
      }
    }
    return new Run(
        sequence,
        RunKind.UNIT,
        startEpochMillis,
        durationNanos,
        label,
        unitType,
        samplingRate,
        observed);
  }

  /** The pairs as counters sorted by slot, read by binary search. */
  private static final class SortedCounts extends RunCounts {
    final int[] slots;
    private final long[] counts;

    SortedCounts(long[] pairs) {
      int n = pairs.length / 2;
      // Slots are non-negative ints: sort (slot, index) packed into longs, no boxing.
      long[] byIndex = new long[n];
      for (int i = 0; i < n; i++) {
        byIndex[i] = pairs[2 * i] << 32 | i;
      }
      Arrays.sort(byIndex);
      slots = new int[n];
      counts = new long[n];
      for (int k = 0; k < n; k++) {
        int i = (int) (byIndex[k] & 0xFFFF_FFFFL);
        slots[k] = (int) (byIndex[k] >>> 32);
        counts[k] = pairs[2 * i + 1];
      }
    }

    @Override
    public void increment(int slot) {
      throw new UnsupportedOperationException("a finished unit's counts are read-only");
    }

    @Override
    public long get(int slot) {
      int i = Arrays.binarySearch(slots, slot);
      return i >= 0 ? counts[i] : 0L;
    }

    @Override
    public int capacity() {
      return Integer.MAX_VALUE;
    }
  }
}
