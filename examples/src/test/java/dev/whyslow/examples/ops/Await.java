package dev.whyslow.examples.ops;

import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;

/** Polling with a deadline for operations tests, failing early when a child process has died. */
final class Await {
  private Await() {}

  /**
   * Polls {@code condition} every half second until it has a value.
   *
   * @throws AssertionError naming {@code what} on timeout, or the process that exited meanwhile
   */
  static <T> T until(
      String what,
      Duration timeout,
      List<ExternalProcess> mustLive,
      Supplier<Optional<T>> condition)
      throws InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (true) {
      Optional<T> value = condition.get();
      if (value.isPresent()) {
        return value.get();
      }
      for (ExternalProcess process : mustLive) {
        if (!process.isAlive()) {
          throw new AssertionError(process.name() + " exited while waiting for " + what);
        }
      }
      if (System.nanoTime() > deadline) {
        throw new AssertionError("timed out after " + timeout + " waiting for " + what);
      }
      Thread.sleep(500);
    }
  }
}
