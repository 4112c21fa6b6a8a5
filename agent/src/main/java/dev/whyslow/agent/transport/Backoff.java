package dev.whyslow.agent.transport;

import java.util.random.RandomGenerator;

/**
 * Exponential backoff with full jitter: the n-th delay is uniform in {@code [0, min(max, initial ·
 * 2^n)]}, so many agents that lost the same daemon do not come back in lock step. Used only on the
 * transport thread.
 */
final class Backoff {
  private final long initialMillis;
  private final long maxMillis;
  private final RandomGenerator random;
  private int attempt;

  Backoff(long initialMillis, long maxMillis, RandomGenerator random) {
    this.initialMillis = initialMillis;
    this.maxMillis = maxMillis;
    this.random = random;
  }

  /** The delay before the next attempt; each call doubles the cap until it reaches the maximum. */
  long nextDelayMillis() {
    long cap = capMillis(attempt);
    if (cap < maxMillis) {
      attempt++;
    }
    return random.nextLong(cap + 1);
  }

  /** After a successful handshake the next outage starts from the initial cap again. */
  void reset() {
    attempt = 0;
  }

  long capMillis(int n) {
    // Shifting past the leading zeros would overflow; by then the cap is the maximum anyway.
    if (n >= Long.numberOfLeadingZeros(initialMillis) - 1) {
      return maxMillis;
    }
    return Math.min(maxMillis, initialMillis << n);
  }
}
