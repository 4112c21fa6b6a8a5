package sample.workload;

/**
 * A program with many predicate evaluations for sampling at low rates: 200,000 calls of {@link
 * #setBits}, each with a loop of about ten evaluations of its loop branch, and a return.
 */
public final class ManyEvaluations {
  private ManyEvaluations() {}

  public static void main(String[] args) {
    long bits = 0;
    for (int i = 0; i < 200_000; i++) {
      bits += setBits(i * 31 + 7);
    }
    System.out.println("bits=" + bits);
  }

  /** Set bits counted one at a time: a loop, so each call chooses whether its probes run. */
  static int setBits(int x) {
    int n = 0;
    for (int v = x; v != 0; v &= v - 1) {
      n++;
    }
    return n;
  }
}
