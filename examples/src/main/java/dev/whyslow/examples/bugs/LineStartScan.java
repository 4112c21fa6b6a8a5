package dev.whyslow.examples.bugs;

import java.util.SplittableRandom;

/**
 * Bug kind 3, a loop that iterates far more on bad inputs (Song and Lu's Mozilla#416628 and
 * GCC#46401: "reduce the number of loop iterations"). An editor applies a batch of edits and needs
 * the column of each one, which it finds by scanning back from the edit to the start of its line.
 * On source code a line is a few dozen characters; on a minified file it is thousands, and every
 * edit scans most of one. Good inputs are ordinary source files, bad inputs minified ones of the
 * same size. The fix keeps an index of line starts.
 *
 * <p>Usage: {@code LineStartScan good|bad <seed>}.
 */
public final class LineStartScan {
  private LineStartScan() {}

  public static void main(String[] args) {
    WorkloadArgs run = WorkloadArgs.parse(args);
    Inputs.Edits edits = Inputs.generate(run.bad(), run.seed());
    long started = System.nanoTime();
    StringBuilder text = new StringBuilder(edits.document());
    long columns = 0;
    for (int e = 0; e < edits.offsets().length; e++) {
      int offset = edits.offsets()[e];
      int column = offset - lineStart(text, offset);
      columns += column;
      text.insert(offset, edits.inserted()[e]);
    }
    System.out.println(run.describe(columns + text.length(), System.nanoTime() - started));
  }

  /** The offset of the first character of the line holding {@code offset}. */
  static int lineStart(CharSequence text, int offset) {
    for (int i = offset; i > 0; i--) { // ROOT CAUSE: loop-branch not taken (one more step back)
      if (text.charAt(i - 1) == '\n') { // ROOT CAUSE: loop-branch taken (not a line break yet)
        return i;
      }
    }
    return 0;
  }

  /** The input generator, not part of the program under diagnosis: the agent excludes it. */
  static final class Inputs {
    record Edits(String document, int[] offsets, String[] inserted) {}

    private Inputs() {}

    static Edits generate(boolean bad, long seed) {
      SplittableRandom random = new SplittableRandom(seed);
      int length = 12_000 + random.nextInt(4_000);
      StringBuilder document = new StringBuilder(length);
      // Both kinds of file start with a short licence line, as minified libraries do.
      document.append("/*! example-lib v").append(random.nextInt(10)).append(" | MIT */\n");
      int lineLength = nextLineLength(bad, random);
      int column = 0;
      while (document.length() < length) {
        if (column == lineLength) {
          document.append('\n');
          column = 0;
          lineLength = nextLineLength(bad, random);
        } else {
          document.append((char) ('a' + random.nextInt(26)));
          column++;
        }
      }
      int count = 120 + random.nextInt(60);
      int[] offsets = new int[count];
      String[] inserted = new String[count];
      int grown = 0;
      for (int e = 0; e < count; e++) {
        offsets[e] = random.nextInt(length + grown);
        inserted[e] = bad ? ";" : " ";
        grown += 1;
      }
      return new Edits(document.toString(), offsets, inserted);
    }

    /** Source code lines are short; a minified file has a few very long ones. */
    private static int nextLineLength(boolean bad, SplittableRandom random) {
      return bad ? 3_000 + random.nextInt(4_000) : 10 + random.nextInt(90);
    }
  }
}
