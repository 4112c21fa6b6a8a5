package dev.whyslow.agent.core;

import java.lang.management.CompilationMXBean;
import java.lang.management.ManagementFactory;
import java.util.ArrayDeque;
import java.util.function.LongSupplier;

/**
 * Tells when the JIT has settled: over the last window it spent less than 1 % of the time compiling
 * ({@link CompilationMXBean#getTotalCompilationTime}). Polled about once a second by the agent's
 * background thread; once settled it stays settled. A JVM that does not report compile time counts
 * as settled after ten windows.
 */
final class JitSettling {
  /** The share of a window the JIT may spend compiling and still count as settled. */
  static final double IDLE_SHARE = 0.01;

  private static final long UNREPORTED = -1;

  private final long windowMillis;
  private final LongSupplier compileMillis;
  private final LongSupplier nowMillis;
  private final long startMillis;
  private final ArrayDeque<long[]> readings = new ArrayDeque<>(); // {time, compile time}
  private boolean settled;

  JitSettling(long windowMillis, LongSupplier compileMillis, LongSupplier nowMillis) {
    this.windowMillis = windowMillis;
    this.compileMillis = compileMillis;
    this.nowMillis = nowMillis;
    this.startMillis = nowMillis.getAsLong();
  }

  /** For this JVM, with its compile time where it reports one. */
  static JitSettling ofThisJvm(long windowMillis) {
    return new JitSettling(
        windowMillis, JitSettling::compileMillisOfThisJvm, System::currentTimeMillis);
  }

  /** Takes a reading and says whether the JIT has settled by now. */
  synchronized boolean settled() {
    if (settled) {
      return true;
    }
    long now = nowMillis.getAsLong();
    long compiled = compileMillis.getAsLong();
    if (compiled == UNREPORTED) {
      settled = now - startMillis >= 10 * windowMillis;
      return settled;
    }
    readings.addLast(new long[] {now, compiled});
    // The oldest reading at least a window old starts the window; older ones are not needed.
    while (readings.size() > 1 && now - secondOldest()[0] >= windowMillis) {
      readings.removeFirst();
    }
    long[] first = readings.peekFirst();
    long elapsed = now - first[0];
    settled = elapsed >= windowMillis && compiled - first[1] < IDLE_SHARE * elapsed;
    return settled;
  }

  private long[] secondOldest() {
    var it = readings.iterator();
    it.next();
    return it.next();
  }

  private static long compileMillisOfThisJvm() {
    try {
      CompilationMXBean jit = ManagementFactory.getCompilationMXBean();
      return jit != null && jit.isCompilationTimeMonitoringSupported()
          ? jit.getTotalCompilationTime()
          : UNREPORTED;
    } catch (RuntimeException | LinkageError e) {
      return UNREPORTED;
    }
  }
}
