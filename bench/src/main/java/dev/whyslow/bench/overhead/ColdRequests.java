package dev.whyslow.bench.overhead;

import java.lang.invoke.MethodHandle;

/**
 * Requests one at a time with the caches emptied before each, as a service's requests arrive: a hot
 * loop of requests keeps the workload's compiled code and data in the core's caches, where a
 * service at 200 requests/s runs the kernel, its dispatcher, the load and other processes between
 * two requests. Before each request the thread writes every cache line of a buffer larger than the
 * core's caches; only the requests are timed. Larger code (the agent's copies and choosers) should
 * cost more here than in a hot loop if the instrumented code's size is what a service pays for.
 */
final class ColdRequests {
  /** Requests per round, as {@code ShopWorkload.REQUESTS_PER_ROUND}. */
  static final int PER_ROUND = 200;

  private final long[] buffer;
  private long sink;

  /**
   * @param kib the buffer written before each request, in KiB; 0 writes nothing
   */
  ColdRequests(int kib) {
    this.buffer = new long[kib * 128];
  }

  /** Writes one long in every 64-byte line of the buffer. */
  void evict() {
    long[] b = buffer;
    long s = sink;
    for (int i = 0; i < b.length; i += 8) {
      s += b[i];
      b[i] = s;
    }
    sink = s;
  }

  /**
   * One round: {@link #PER_ROUND} requests from seed {@code round * PER_ROUND} on, each after
   * {@link #evict}; returns the requests' checksum and adds their time to {@code spentNanos[0]}.
   */
  long round(MethodHandle request, int round, long[] spentNanos) throws Throwable {
    long checksum = 0;
    long spent = 0;
    for (int i = 0; i < PER_ROUND; i++) {
      evict();
      long start = System.nanoTime();
      long reply = (long) request.invokeExact(round * PER_ROUND + i);
      spent += System.nanoTime() - start;
      checksum = checksum * 31 + reply;
    }
    spentNanos[0] += spent;
    return checksum;
  }

  /** Milliseconds that the requests of {@code rounds} rounds from {@code seed} on take. */
  double time(MethodHandle request, int seed, int rounds) throws Throwable {
    long[] spent = new long[1];
    long checksums = 0;
    for (int i = 0; i < rounds; i++) {
      checksums += round(request, seed + i, spent);
    }
    if (checksums == 42) {
      System.out.print(""); // keeps the result alive
    }
    return spent[0] / 1e6;
  }
}
