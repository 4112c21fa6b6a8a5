package dev.whyslow.examples.e2e;

/**
 * A program whose predicate counts can be computed by hand, for the end-to-end test at sampling
 * rate 1. The loop condition {@code i < 100} is evaluated 101 times (not taken 100 times, taken
 * once to leave); {@code i % 3 == 0} is evaluated 100 times and true for 34 of them; {@link
 * #classify} is called 34 times, with {@code x < 10} true 4 times (x = 0, 3, 6, 9), so it returns a
 * negative value 4 times and a positive one 30 times.
 *
 * <p>With an argument {@code n}, it repeats the whole computation {@code n} times (for the sampled
 * test). Keep the source as it is: the test's hand computation depends on these lines.
 */
public final class CountingWorkload {
  private CountingWorkload() {}

  public static void main(String[] args) {
    int repeats = args.length > 0 ? Integer.parseInt(args[0]) : 1;
    long total = 0;
    for (int r = 0; r < repeats; r++) {
      total += sumOfClassified();
    }
    System.out.println("total=" + total);
  }

  static int sumOfClassified() {
    int sum = 0;
    for (int i = 0; i < 100; i++) {
      if (i % 3 == 0) {
        sum += classify(i);
      }
    }
    return sum;
  }

  static int classify(int x) {
    if (x < 10) {
      return -1;
    }
    return x;
  }
}
