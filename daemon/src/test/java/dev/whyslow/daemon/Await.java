package dev.whyslow.daemon;

import java.time.Duration;
import java.util.function.BooleanSupplier;

/** Waits for a condition with a deadline instead of sleeping and hoping. */
public final class Await {
  private Await() {}

  public static void until(String what, BooleanSupplier condition) {
    until(what, Duration.ofSeconds(10), condition);
  }

  public static void until(String what, Duration timeout, BooleanSupplier condition) {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError("timed out after " + timeout + " waiting for " + what);
      }
      try {
        Thread.sleep(5); // a poll interval, not a guess at how long the work takes
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new AssertionError("interrupted waiting for " + what, e);
      }
    }
  }
}
