package dev.whyslow.examples.shop;

import java.util.Arrays;
import java.util.EnumMap;
import java.util.Map;

/**
 * Collects the latency of every measured request per kind, exactly (a growing array, not a
 * histogram: a ten-minute run at a few hundred requests per second is a few megabytes).
 */
final class LatencyRecorder {
  private final Map<RequestKind, long[]> latencies = new EnumMap<>(RequestKind.class);
  private final Map<RequestKind, Integer> sizes = new EnumMap<>(RequestKind.class);
  private final Map<RequestKind, Long> sent = new EnumMap<>(RequestKind.class);
  private final Map<RequestKind, Long> errors = new EnumMap<>(RequestKind.class);

  synchronized void sent(RequestKind kind) {
    sent.merge(kind, 1L, Long::sum);
  }

  /** A response arrived {@code latencyNanos} after the request's intended send time. */
  synchronized void completed(RequestKind kind, long latencyNanos, boolean ok) {
    long[] values = latencies.computeIfAbsent(kind, k -> new long[1024]);
    int size = sizes.getOrDefault(kind, 0);
    if (size == values.length) {
      values = Arrays.copyOf(values, size * 2);
      latencies.put(kind, values);
    }
    values[size] = latencyNanos;
    sizes.put(kind, size + 1);
    if (!ok) {
      errors.merge(kind, 1L, Long::sum);
    }
  }

  /** The request failed without a response (timeout, refused connection). */
  synchronized void failed(RequestKind kind) {
    errors.merge(kind, 1L, Long::sum);
  }

  synchronized LatencyStats stats(RequestKind kind) {
    long[] values =
        Arrays.copyOf(latencies.getOrDefault(kind, new long[0]), sizes.getOrDefault(kind, 0));
    return LatencyStats.of(sent.getOrDefault(kind, 0L), errors.getOrDefault(kind, 0L), values);
  }

  synchronized LatencyStats overall() {
    long totalSent = 0;
    long totalErrors = 0;
    for (RequestKind kind : RequestKind.values()) {
      totalSent += sent.getOrDefault(kind, 0L);
      totalErrors += errors.getOrDefault(kind, 0L);
    }
    return LatencyStats.of(totalSent, totalErrors, allNanos());
  }

  /** Every completed request's latency so far, all kinds together, in no particular order. */
  synchronized long[] allNanos() {
    long[] all = new long[0];
    for (RequestKind kind : RequestKind.values()) {
      int size = sizes.getOrDefault(kind, 0);
      int offset = all.length;
      all = Arrays.copyOf(all, offset + size);
      if (size > 0) {
        System.arraycopy(latencies.get(kind), 0, all, offset, size);
      }
    }
    return all;
  }
}
