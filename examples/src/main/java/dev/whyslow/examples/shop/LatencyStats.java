package dev.whyslow.examples.shop;

import java.util.Arrays;

/**
 * The latency summary of one request kind (or all of them): counts, and nearest-rank percentiles of
 * the latencies measured from each request's intended send time, in milliseconds.
 *
 * @param sent requests scheduled in the measured period
 * @param completed requests that got a response, whatever its status
 * @param errors requests with a non-2xx response, a timeout or a connection failure
 */
public record LatencyStats(
    long sent,
    long completed,
    long errors,
    double p50Ms,
    double p90Ms,
    double p99Ms,
    double p999Ms,
    double maxMs) {

  /** Stats of {@code latenciesNanos} (every completed request's latency; sorted here in place). */
  static LatencyStats of(long sent, long errors, long[] latenciesNanos) {
    Arrays.sort(latenciesNanos);
    return new LatencyStats(
        sent,
        latenciesNanos.length,
        errors,
        percentileMs(latenciesNanos, 0.50),
        percentileMs(latenciesNanos, 0.90),
        percentileMs(latenciesNanos, 0.99),
        percentileMs(latenciesNanos, 0.999),
        latenciesNanos.length == 0 ? Double.NaN : latenciesNanos[latenciesNanos.length - 1] / 1e6);
  }

  /**
   * The nearest-rank percentile: the smallest value with at least {@code q} of them at or below.
   */
  static double percentileMs(long[] sortedNanos, double q) {
    if (sortedNanos.length == 0) {
      return Double.NaN;
    }
    int rank = (int) Math.ceil(q * sortedNanos.length);
    return sortedNanos[Math.max(0, rank - 1)] / 1e6;
  }
}
