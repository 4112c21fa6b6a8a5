package dev.whyslow.examples.bugs;

import java.util.Arrays;
import java.util.SplittableRandom;

/**
 * Bug kind 7, where a profiler's hottest function is not the root cause (Song and Lu's MySQL#44723:
 * the profiler blamed the zero-filling callee, the predicate that mattered was elsewhere). An event
 * index answers "how many events in the last minute" by binary search over sorted timestamps. One
 * late event makes {@link EventIndex#append} mark the whole index stale, and the next query pays
 * for {@link EventIndex#rebuild}: a full sort and a new minute directory. A profile of a slow run
 * shows {@code rebuild} and the sort on top; neither is slow in itself, and the query that calls
 * them is called as often in fast runs. The cause is the branch in {@code append}, on another call
 * path; a scalar pair says the same where the event is read, as a timestamp below the watermark.
 * Good inputs deliver events in order; in bad inputs a few percent arrive late. The fix inserts a
 * late event in place instead of invalidating the index.
 *
 * <p>Usage: {@code LateEventReindex good|bad <seed>}.
 */
public final class LateEventReindex {
  static final long MINUTE_MILLIS = 60_000;

  private LateEventReindex() {}

  public static void main(String[] args) {
    WorkloadArgs run = WorkloadArgs.parse(args);
    Inputs.Stream stream = Inputs.generate(run.bad(), run.seed());
    long started = System.nanoTime();
    EventIndex index = new EventIndex(stream.history().length + stream.live().length);
    index.loadHistory(stream.history());
    long seen = 0;
    // The stream's event-time watermark: the newest timestamp so far.
    long watermark = Long.MIN_VALUE;
    for (int i = 0; i < stream.live().length; i++) {
      long timestamp = stream.live()[i]; // ROOT CAUSE: scalar-pair < new timestamp vs watermark
      index.append(timestamp);
      watermark = Math.max(watermark, timestamp);
      if (i % Inputs.QUERY_EVERY == 0) {
        seen += index.countBetween(watermark - MINUTE_MILLIS, watermark);
      }
    }
    System.out.println(run.describe(seen + index.rebuilds, System.nanoTime() - started));
  }

  /** Timestamps kept sorted for range counts, with the index of each minute's first event. */
  static final class EventIndex {
    private final long[] times;
    private int size;
    private long newest = Long.MIN_VALUE;
    private boolean stale;
    private long firstMinute;
    private int[] minuteStarts = new int[0];
    long rebuilds;

    EventIndex(int capacity) {
      times = new long[capacity];
    }

    /** Bulk load: the history arrives unsorted and is indexed by the first query. */
    void loadHistory(long[] history) {
      System.arraycopy(history, 0, times, 0, history.length);
      size = history.length;
      for (int i = 0; i < history.length; i++) {
        newest = Math.max(newest, history[i]);
      }
      stale = true;
    }

    void append(long timestamp) {
      if (timestamp < newest) { // ROOT CAUSE: branch not taken (a late event)
        stale = true;
      }
      newest = Math.max(newest, timestamp);
      times[size++] = timestamp;
    }

    int countBetween(long fromInclusive, long toInclusive) {
      if (stale) {
        rebuild();
      }
      return upperBound(toInclusive) - lowerBound(fromInclusive);
    }

    /** The hot helper: sorts everything and rebuilds the minute directory. */
    void rebuild() {
      rebuilds++;
      Arrays.sort(times, 0, size);
      firstMinute = times[0] / MINUTE_MILLIS;
      int minutes = (int) (times[size - 1] / MINUTE_MILLIS - firstMinute) + 1;
      minuteStarts = new int[minutes];
      int minute = 0;
      for (int i = 0; i < size; i++) {
        int m = (int) (times[i] / MINUTE_MILLIS - firstMinute);
        while (minute <= m) {
          minuteStarts[minute++] = i;
        }
      }
      stale = false;
    }

    /**
     * First index whose time is at least {@code time}. The minute directory gives where to start;
     * events appended in order since the last rebuild all lie after its last minute.
     */
    private int lowerBound(long time) {
      long minute =
          Math.max(0, Math.min(time / MINUTE_MILLIS - firstMinute, minuteStarts.length - 1));
      int lo = minuteStarts[(int) minute];
      int hi = size;
      while (lo < hi) {
        int mid = (lo + hi) >>> 1;
        if (times[mid] < time) {
          lo = mid + 1;
        } else {
          hi = mid;
        }
      }
      return lo;
    }

    private int upperBound(long time) {
      return lowerBound(time + 1);
    }
  }

  /** The input generator, not part of the program under diagnosis: the agent excludes it. */
  static final class Inputs {
    record Stream(long[] history, long[] live) {}

    static final int QUERY_EVERY = 10;

    private Inputs() {}

    static Stream generate(boolean bad, long seed) {
      SplittableRandom random = new SplittableRandom(seed);
      long start = 1_700_000_000_000L + random.nextInt(1_000_000);
      long[] history = new long[3_000 + random.nextInt(1_000)];
      for (int i = 0; i < history.length; i++) {
        history[i] = start + random.nextLong(3_600_000);
      }
      long now = start + 3_600_000;
      long[] live = new long[2_000 + random.nextInt(500)];
      for (int i = 0; i < live.length; i++) {
        now += 1 + random.nextInt(200);
        // Bad inputs: 4% of the events arrive up to a minute late.
        boolean late = bad && random.nextInt(100) < 4;
        live[i] = late ? now - 1 - random.nextInt(60_000) : now;
      }
      return new Stream(history, live);
    }
  }
}
