package dev.whyslow.examples.bugs;

import java.util.ArrayList;
import java.util.LinkedList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * Bug kind 8, a slowdown inside a library call reached from the application (many of Song and Lu's
 * loop bugs sit in container code). An order importer walks the rows an upload parser hands it with
 * {@code rows.get(i)}. The parser returns an {@code ArrayList} when the upload declares its size
 * and a {@code LinkedList} when it is streamed, and {@code LinkedList.get} walks the list from the
 * nearer end on every call, so the import turns quadratic. Good inputs are sized uploads, bad
 * inputs streamed ones of the same size. The root cause is the loop in {@code
 * java.util.LinkedList.node}, so the agent must instrument {@code java.util} to see it ({@link
 * #INCLUDE}). The fix iterates.
 *
 * <p>Usage: {@code LinkedListImport good|bad <seed>}.
 */
public final class LinkedListImport {
  /**
   * Where the root cause is, for the evaluation runner: JDK line numbers differ between JDK builds,
   * so the library marker names the class and method, the site kind and the predicate (both of
   * {@code node}'s loops, the forward and the backward walk, say "one more step").
   */
  public static final String ROOT_CAUSE_IN_LIBRARY =
      "java.util.LinkedList#node loop-branch not taken";

  /** Packages the agent must instrument besides this class. */
  public static final String INCLUDE = "java.util";

  private LinkedListImport() {}

  public static void main(String[] args) {
    WorkloadArgs run = WorkloadArgs.parse(args);
    List<Inputs.Row> rows = Inputs.generate(run.bad(), run.seed());
    long started = System.nanoTime();
    long cents = 0;
    for (int i = 0; i < rows.size(); i++) {
      Inputs.Row row = rows.get(i);
      cents += (long) row.quantity() * row.unitCents();
    }
    System.out.println(run.describe(cents, System.nanoTime() - started));
  }

  /** The upload parser, not part of the program under diagnosis: the agent excludes it. */
  static final class Inputs {
    record Row(int quantity, int unitCents) {}

    private Inputs() {}

    static List<Row> generate(boolean bad, long seed) {
      SplittableRandom random = new SplittableRandom(seed);
      int count = 800 + random.nextInt(400);
      // A streamed upload has no size up front, so the parser collects rows in a LinkedList.
      List<Row> rows = bad ? new LinkedList<>() : new ArrayList<>(count);
      for (int i = 0; i < count; i++) {
        rows.add(new Row(1 + random.nextInt(5), 100 + random.nextInt(10_000)));
      }
      return rows;
    }
  }
}
