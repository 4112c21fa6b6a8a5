package dev.whyslow.agent.core;

import dev.whyslow.protocol.UnitHistogram;
import java.util.Arrays;

/**
 * One unit type's durations in the current interval: count, sum, sum of squares, min, max,
 * violations and the shared buckets. Every unit's end records here, on the application thread that
 * ran it, so the interval is kept in stripes with a lock each, and a thread records into the stripe
 * its id picks: on a host with many cores, the threads ending units of one type at the same moment
 * take different locks instead of queueing on one (a single lock was the design until 2026-12-03).
 * Recording allocates nothing once a thread's stripe exists; {@link #drain} merges the stripes,
 * hands the interval over and starts the next one.
 */
public final class UnitHistogramRecorder {
  /**
   * The most stripes a recorder has. Sixteen threads of one unit type ending at the same instant is
   * already rare; each stripe is some 250 bytes, times up to {@code UnitRecorder.MAX_TYPES} types.
   */
  public static final int MAX_STRIPES = 16;

  private final String unitType;
  private final Stripe[] stripes;
  private final int mask;

  /** A recorder with as many stripes as the host has processors, at most {@link #MAX_STRIPES}. */
  public UnitHistogramRecorder(String unitType) {
    this(unitType, stripesFor(Runtime.getRuntime().availableProcessors()));
  }

  /**
   * @param stripes a power of two from 1 to {@link #MAX_STRIPES}
   */
  public UnitHistogramRecorder(String unitType, int stripes) {
    if (stripes < 1 || stripes > MAX_STRIPES || Integer.bitCount(stripes) != 1) {
      throw new IllegalArgumentException(
          "stripes must be a power of two from 1 to " + MAX_STRIPES + ", not " + stripes);
    }
    this.unitType = unitType;
    this.stripes = new Stripe[stripes];
    this.mask = stripes - 1;
  }

  /** The smallest power of two at least {@code processors}, at most {@link #MAX_STRIPES}. */
  static int stripesFor(int processors) {
    int wanted = Math.max(1, Math.min(MAX_STRIPES, processors));
    return Integer.highestOneBit(wanted) == wanted ? wanted : Integer.highestOneBit(wanted) << 1;
  }

  public void record(long nanos, boolean violation) {
    int index = (int) Thread.currentThread().getId() & mask;
    Stripe stripe = stripes[index];
    if (stripe == null) {
      stripe = stripeAt(index);
    }
    stripe.record(Math.max(0, nanos), violation);
  }

  /**
   * The stripe at {@code index}, made on first use: most hosts run few threads per unit type, and a
   * recorder per type with every stripe made up front would hold some 4 KiB per type on a large
   * host. A thread that reads the slot without the lock may see the new stripe at once or after
   * this; a {@link Stripe} is all default values (and a final array) until its first record, which
   * takes its lock, so either way it sees it whole.
   */
  private synchronized Stripe stripeAt(int index) {
    Stripe stripe = stripes[index];
    if (stripe == null) {
      stripe = new Stripe();
      stripes[index] = stripe;
    }
    return stripe;
  }

  /** The interval so far, or {@code null} if no unit ended in it; resets for the next. */
  public UnitHistogram drain() {
    Stripe total = new Stripe();
    for (int i = 0; i < stripes.length; i++) {
      Stripe stripe = stripes[i];
      if (stripe == null) {
        // Made under this object's lock; read under it so that none made since is missed.
        synchronized (this) {
          stripe = stripes[i];
        }
      }
      if (stripe != null) {
        stripe.drainInto(total);
      }
    }
    if (total.count == 0) {
      return null;
    }
    return new UnitHistogram(
        unitType,
        total.count,
        total.sum,
        total.sumSquares,
        total.min,
        total.max,
        total.violations,
        total.buckets);
  }

  /**
   * One stripe of the interval. Every field starts at its default value, the minimum included
   * ({@code count == 0} says there is none yet), so that a stripe seen without its maker's lock is
   * a correct empty one.
   */
  private static final class Stripe {
    private final long[] buckets = new long[UnitHistogram.BUCKETS];
    private long count;
    private long sum;
    private double sumSquares;
    private long min;
    private long max;
    private long violations;

    synchronized void record(long nanos, boolean violation) {
      buckets[UnitHistogram.bucketOf(nanos)]++;
      min = count == 0 ? nanos : Math.min(min, nanos);
      max = Math.max(max, nanos);
      count++;
      sum += nanos;
      sumSquares += (double) nanos * nanos;
      if (violation) {
        violations++;
      }
    }

    /** Adds this stripe to {@code total}, which only the calling thread sees, and empties it. */
    synchronized void drainInto(Stripe total) {
      if (count == 0) {
        return;
      }
      for (int b = 0; b < buckets.length; b++) {
        total.buckets[b] += buckets[b];
      }
      total.min = total.count == 0 ? min : Math.min(total.min, min);
      total.max = Math.max(total.max, max);
      total.count += count;
      total.sum += sum;
      total.sumSquares += sumSquares;
      total.violations += violations;
      Arrays.fill(buckets, 0);
      count = 0;
      sum = 0;
      sumSquares = 0;
      min = 0;
      max = 0;
      violations = 0;
    }
  }
}
