package dev.whyslow.examples.bugs;

import java.util.Arrays;
import java.util.SplittableRandom;

/**
 * Bug kind 4, a loop whose extra work is produced by an earlier root-cause loop (Song and Lu's
 * GCC#8805 and GCC#46401, where the loop that made unneeded work was the root cause and the loops
 * that processed it were its effect). A spreadsheet recalculates after each edit: {@link
 * #invalidate} walks from the edited cell down to every cell that reads it, directly or not, and
 * queues it; {@link #recompute} then goes through the queue. The sheet keeps no index of readers,
 * so the walk finds a cell's readers by scanning the formulas of the row below. It never checks
 * whether a cell is already queued, so a cell reached along several paths is walked again, row scan
 * and all, once per path, and queued once per path. Good sheets are trees (each formula reads one
 * cell of the row above); in bad sheets formulas read two cells, so paths multiply. The root cause
 * is the walk; the recompute loop, which runs once per queued duplicate, is the effect. The fix
 * skips cells already queued.
 *
 * <p>Usage: {@code InvalidationCascade good|bad <seed>}.
 */
public final class InvalidationCascade {
  private InvalidationCascade() {}

  public static void main(String[] args) {
    WorkloadArgs run = WorkloadArgs.parse(args);
    Inputs.Sheet sheet = Inputs.generate(run.bad(), run.seed());
    long started = System.nanoTime();
    int[][] reads = sheet.reads();
    double[] values = new double[reads.length];
    int[] recomputedInRound = new int[reads.length];
    IntList queue = new IntList();
    IntList stack = new IntList();
    long queued = 0;
    for (int e = 0; e < sheet.edits().length; e++) {
      int edited = sheet.edits()[e];
      values[edited] += 1;
      queue.clear();
      invalidate(reads, sheet.width(), edited, stack, queue);
      queued += queue.size;
      recompute(queue, reads, values, recomputedInRound, e + 1);
    }
    System.out.println(
        run.describe(queued + (long) values[reads.length - 1], System.nanoTime() - started));
  }

  /**
   * Queues every cell that reads {@code edited}, directly or not (and, wrongly, once per path to
   * it). Cells are numbered row by row, {@code width} to a row, and only read the row above.
   */
  static void invalidate(int[][] reads, int width, int edited, IntList stack, IntList queue) {
    stack.clear();
    stack.add(edited);
    while (stack.size > 0) { // ROOT CAUSE: loop-branch not taken (another cell to walk)
      int cell = stack.removeLast();
      int below = (cell / width + 1) * width;
      int end = Math.min(below + width, reads.length);
      for (int c = below; c < end; c++) { // ROOT CAUSE: loop-branch not taken (next formula)
        int[] from = reads[c];
        if (from[0] == cell || from[from.length - 1] == cell) {
          stack.add(c);
          queue.add(c);
        }
      }
    }
  }

  /** Recomputes the queued cells in sheet order, each once. */
  static void recompute(
      IntList queue, int[][] reads, double[] values, int[] recomputedInRound, int round) {
    Arrays.sort(queue.items, 0, queue.size);
    for (int q = 0; q < queue.size; q++) { // the effect: one iteration per queued duplicate
      int cell = queue.items[q];
      if (recomputedInRound[cell] == round) {
        continue;
      }
      recomputedInRound[cell] = round;
      int[] from = reads[cell];
      double sum = 0;
      for (int k = 0; k < from.length; k++) {
        sum += values[from[k]];
      }
      values[cell] = sum / from.length + 1;
    }
  }

  /** A growable list of ints. */
  static final class IntList {
    int[] items = new int[64];
    int size;

    void add(int value) {
      if (size == items.length) {
        items = Arrays.copyOf(items, size * 2);
      }
      items[size++] = value;
    }

    int removeLast() {
      return items[--size];
    }

    void clear() {
      size = 0;
    }
  }

  /** The input generator, not part of the program under diagnosis: the agent excludes it. */
  static final class Inputs {
    /**
     * @param reads the cells each cell's formula reads: one or two cells of the row above; cells of
     *     the first row hold values and read nothing
     * @param width cells per row
     * @param edits the cells of the first row edited, in order
     */
    record Sheet(int[][] reads, int width, int[] edits) {}

    static final int ROWS = 10;

    private Inputs() {}

    static Sheet generate(boolean bad, long seed) {
      SplittableRandom random = new SplittableRandom(seed);
      int width = 16 + random.nextInt(8);
      int[][] reads = new int[ROWS * width][];
      for (int cell = 0; cell < reads.length; cell++) {
        int row = cell / width;
        if (row == 0) {
          reads[cell] = new int[0];
          continue;
        }
        // Good sheets: a formula reads one cell above. Bad sheets: two distinct cells above.
        int above = (row - 1) * width;
        int a = random.nextInt(width);
        int b = (a + 1 + random.nextInt(width - 1)) % width;
        reads[cell] = bad ? new int[] {above + a, above + b} : new int[] {above + a};
      }
      int[] edits = new int[25 + random.nextInt(10)];
      for (int e = 0; e < edits.length; e++) {
        edits[e] = random.nextInt(width);
      }
      return new Sheet(reads, width, edits);
    }
  }
}
