package dev.whyslow.examples.shop;

/**
 * Counts the elementary steps one request took (names compared, products scored, lines priced), so
 * tests can tell a slow path from a fast one by work done rather than by wall-clock time. The
 * router returns the count in the {@code X-Shop-Work} header.
 */
final class Work {
  private long steps;

  void add(long n) {
    steps += n;
  }

  long steps() {
    return steps;
  }
}
