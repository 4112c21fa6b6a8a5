package dev.whyslow.agent.transport;

import java.time.Duration;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;

/** Waits for a condition with a deadline instead of sleeping and hoping. */
final class Conditions {
  static final Duration TIMEOUT = Duration.ofSeconds(10);

  private Conditions() {}

  static void await(String what, BooleanSupplier condition) {
    long deadline = System.nanoTime() + TIMEOUT.toNanos();
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError("timed out after " + TIMEOUT + " waiting for " + what);
      }
      LockSupport.parkNanos(5_000_000);
    }
  }
}
