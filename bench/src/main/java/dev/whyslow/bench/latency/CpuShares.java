package dev.whyslow.bench.latency;

import java.time.Duration;
import java.util.Locale;

/**
 * CPU seconds per second of wall time that the shop, the load generator and this JVM (the daemon)
 * used over one window of a run, from the operating system's per-process totals.
 *
 * <p>On a small shared machine the p99 moves with everything else that runs, and so does CPU time:
 * the same load generator doing the same requests used 8.0 s of CPU in one minute and 9.6 s in the
 * next. Dividing the shop's share by the load generator's is meant to cancel that drift, since the
 * generator sends the same requests in every run, with the agent in the shop or not. It is not
 * exact: in ten pairs on 2026-11-26 the generator's CPU was a little lower beside the agent (median
 * 0.141 against 0.147 s/s), so report both ratios.
 *
 * @param shop the shop's process: request threads, JIT, GC and the agent's threads
 * @param load the load generator's process
 * @param daemon this JVM, where whyslowd runs
 */
record CpuShares(double shop, double load, double daemon) {

  double shopPerLoad() {
    return shop / load;
  }

  /**
   * Waits out {@code window} (offsets from now) and returns the shares over it; NaN where the
   * operating system gives no CPU total for a process, or it has exited.
   */
  static CpuShares measure(Process shop, Process load, Duration[] window)
      throws InterruptedException {
    long origin = System.nanoTime();
    sleepUntil(origin + window[0].toNanos());
    long startNanos = System.nanoTime();
    long shopStart = cpuNanos(shop.toHandle());
    long loadStart = cpuNanos(load.toHandle());
    long selfStart = cpuNanos(ProcessHandle.current());
    sleepUntil(origin + window[1].toNanos());
    double seconds = (System.nanoTime() - startNanos) / 1e9;
    return new CpuShares(
        share(shopStart, cpuNanos(shop.toHandle()), seconds),
        share(loadStart, cpuNanos(load.toHandle()), seconds),
        share(selfStart, cpuNanos(ProcessHandle.current()), seconds));
  }

  private static long cpuNanos(ProcessHandle process) {
    if (!process.isAlive()) {
      return -1;
    }
    return process.info().totalCpuDuration().map(Duration::toNanos).orElse(-1L);
  }

  private static double share(long before, long after, double seconds) {
    return before < 0 || after < 0 ? Double.NaN : (after - before) / 1e9 / seconds;
  }

  private static void sleepUntil(long deadlineNanos) throws InterruptedException {
    for (long left; (left = deadlineNanos - System.nanoTime()) > 0; ) {
      Thread.sleep(Math.max(1, left / 1_000_000));
    }
  }

  @Override
  public String toString() {
    return String.format(
        Locale.ROOT, "CPU s/s: shop %.3f, load %.3f, daemon %.3f", shop, load, daemon);
  }
}
