package dev.whyslow.examples.bugs;

import java.util.SplittableRandom;

/**
 * Bug kind 5, redundant work across the iterations of one loop (Song and Lu's Apache#32546 and
 * GCC#1687: "combine loop iterations"). A report renderer wraps paragraphs to a column width. For
 * each word it measures the current line by adding up the widths of all words on it so far, work
 * the previous iteration had just done. With a narrow column a line holds a dozen words and nobody
 * notices; exported to a spreadsheet cell the "column" is unbounded, a whole paragraph is one line,
 * and wrapping turns quadratic. Good inputs use normal widths, bad inputs the export width, on the
 * same paragraphs. The fix carries the running width from one iteration to the next.
 *
 * <p>Usage: {@code WrapWidthResum good|bad <seed>}.
 */
public final class WrapWidthResum {
  static final int SPACE = 1;

  private WrapWidthResum() {}

  public static void main(String[] args) {
    WorkloadArgs run = WorkloadArgs.parse(args);
    Inputs.Report report = Inputs.generate(run.bad(), run.seed());
    long started = System.nanoTime();
    long lines = 0;
    for (int p = 0; p < report.paragraphs().length; p++) {
      lines += wrap(report.paragraphs()[p], report.width());
    }
    System.out.println(run.describe(lines, System.nanoTime() - started));
  }

  /** How many lines {@code wordWidths} take when wrapped to {@code width} columns. */
  static int wrap(int[] wordWidths, int width) {
    int lines = 1;
    int lineStart = 0;
    for (int w = 0; w < wordWidths.length; w++) {
      int lineWidth = 0;
      for (int k = lineStart; k <= w; k++) { // ROOT CAUSE: loop-branch not taken (re-adds a word)
        lineWidth += wordWidths[k] + SPACE;
      }
      if (lineWidth - SPACE > width) {
        lines++;
        lineStart = w;
      }
    }
    return lines;
  }

  /** The input generator, not part of the program under diagnosis: the agent excludes it. */
  static final class Inputs {
    record Report(int[][] paragraphs, int width) {}

    /** What the spreadsheet export passes as the column width: no wrapping at all. */
    static final int UNBOUNDED = Integer.MAX_VALUE / 2;

    private Inputs() {}

    static Report generate(boolean bad, long seed) {
      SplittableRandom random = new SplittableRandom(seed);
      int[][] paragraphs = new int[6 + random.nextInt(4)][];
      for (int p = 0; p < paragraphs.length; p++) {
        paragraphs[p] = new int[200 + random.nextInt(200)];
        for (int w = 0; w < paragraphs[p].length; w++) {
          paragraphs[p][w] = 1 + random.nextInt(11);
        }
      }
      return new Report(paragraphs, bad ? UNBOUNDED : 60 + random.nextInt(60));
    }
  }
}
