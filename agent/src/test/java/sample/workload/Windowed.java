package sample.workload;

/**
 * Counts set bits for as many seconds as its argument says, checking every count against {@link
 * Integer#bitCount}, so a run long enough for several sampling windows still prints one line that
 * says whether the instrumented code ever answered wrong.
 */
public final class Windowed {
  private Windowed() {}

  public static void main(String[] args) {
    long until = System.nanoTime() + Long.parseLong(args[0]) * 1_000_000_000L;
    long counts = 0;
    for (int round = 0; System.nanoTime() < until; round++) {
      for (int i = 0; i < 10_000; i++) {
        int x = i * 31 + round;
        if (ManyEvaluations.setBits(x) != Integer.bitCount(x)) {
          System.out.println("wrong count for " + x);
          return;
        }
        counts++;
      }
    }
    System.out.println(counts > 0 ? "all counts right" : "no counts");
  }
}
