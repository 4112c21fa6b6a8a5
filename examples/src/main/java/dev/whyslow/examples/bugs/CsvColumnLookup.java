package dev.whyslow.examples.bugs;

import java.util.Locale;
import java.util.SplittableRandom;

/**
 * Bug kind 6, redundant work across the instances of one loop (Song and Lu's Apache#34464 and
 * Apache#47223: "combine loop instances"). A CSV importer maps each wanted field to its column by
 * scanning the header (names match ignoring case), for every cell of every row, so the same scan
 * runs from scratch thousands of times. With a handful of columns it is cheap; a wide export with a
 * hundred-odd columns makes each scan long. Good inputs are narrow tables with many rows, bad
 * inputs wide tables with few rows, with about the same number of cells. The fix looks every column
 * up once per file.
 *
 * <p>Usage: {@code CsvColumnLookup good|bad <seed>}.
 */
public final class CsvColumnLookup {
  private CsvColumnLookup() {}

  public static void main(String[] args) {
    WorkloadArgs run = WorkloadArgs.parse(args);
    Inputs.Csv csv = Inputs.generate(run.bad(), run.seed());
    long started = System.nanoTime();
    long total = 0;
    for (int r = 0; r < csv.rows().length; r++) {
      String[] row = csv.rows()[r];
      for (int f = 0; f < csv.wanted().length; f++) {
        total += row[columnIndex(csv.header(), csv.wanted()[f])].length();
      }
    }
    System.out.println(run.describe(total, System.nanoTime() - started));
  }

  /** The index of column {@code name} in {@code header}, or -1. */
  static int columnIndex(String[] header, String name) {
    for (int i = 0; i < header.length; i++) { // ROOT CAUSE: loop-branch not taken (next column)
      if (header[i].equalsIgnoreCase(name)) { // ROOT CAUSE: loop-branch taken (not this column)
        return i;
      }
    }
    return -1;
  }

  /** The input generator, not part of the program under diagnosis: the agent excludes it. */
  static final class Inputs {
    record Csv(String[] header, String[][] rows, String[] wanted) {}

    private Inputs() {}

    static Csv generate(boolean bad, long seed) {
      SplittableRandom random = new SplittableRandom(seed);
      int columns = bad ? 120 + random.nextInt(40) : 6 + random.nextInt(5);
      int cells = 3_600 + random.nextInt(800);
      String[] header = new String[columns];
      for (int c = 0; c < columns; c++) {
        header[c] = "field_" + Integer.toString(random.nextInt(1 << 20), 36) + "_" + c;
      }
      String[][] rows = new String[Math.max(1, cells / columns)][columns];
      for (String[] row : rows) {
        for (int c = 0; c < columns; c++) {
          row[c] = Integer.toString(random.nextInt(100_000));
        }
      }
      // Every field is imported, in a shuffled order, named as the import mapping spells it.
      String[] wanted = new String[columns];
      for (int c = 0; c < columns; c++) {
        wanted[c] = header[c].toUpperCase(Locale.ROOT);
      }
      for (int i = wanted.length - 1; i > 0; i--) {
        int j = random.nextInt(i + 1);
        String swap = wanted[i];
        wanted[i] = wanted[j];
        wanted[j] = swap;
      }
      return new Csv(header, rows, wanted);
    }
  }
}
