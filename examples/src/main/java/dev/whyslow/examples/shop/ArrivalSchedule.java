package dev.whyslow.examples.shop;

import java.time.Duration;

/**
 * When each request of an open-model load is due: request {@code i} at {@code start + i / rate},
 * whatever happened to the requests before it. Latency is measured from this intended time, so a
 * server that stalls is charged for the requests that queued behind the stall (no coordinated
 * omission).
 *
 * @param startNanos {@link System#nanoTime()} of request 0
 * @param intervalNanos time between two requests, {@code 1e9 / rate}
 */
record ArrivalSchedule(long startNanos, double intervalNanos) {
  static ArrivalSchedule of(long startNanos, double ratePerSecond) {
    return new ArrivalSchedule(startNanos, 1e9 / ratePerSecond);
  }

  long intendedNanos(long index) {
    return startNanos + Math.round(index * intervalNanos);
  }

  /** Requests due within {@code length} from the start. */
  long count(Duration length) {
    // The small epsilon keeps 1 s at 20/s from rounding up to 21 through floating-point error.
    return (long) Math.ceil(length.toNanos() / intervalNanos - 1e-6);
  }
}
