package sample.workload;

/**
 * A program whose predicate counts are known by hand, for the dump test at rate 1. The loop
 * condition {@code i < 10} is evaluated 11 times (its "if_icmpge" jump taken once, to leave);
 * {@code i % 2 == 0} ("ifne": taken when odd) 10 times, taken 5; {@link #half} returns 5 times, 0
 * once and positive 4 times. Keep the source as it is.
 */
public final class Counting {
  private Counting() {}

  public static void main(String[] args) {
    int sum = 0;
    for (int i = 0; i < 10; i++) {
      if (i % 2 == 0) {
        sum += half(i);
      }
    }
    System.out.println("sum=" + sum);
  }

  static int half(int x) {
    // A call keeps it from being a trivial method, which gets no return probe.
    return Math.floorDiv(x, 2);
  }
}
