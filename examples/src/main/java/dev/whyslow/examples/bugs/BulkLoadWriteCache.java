package dev.whyslow.examples.bugs;

import java.util.SplittableRandom;

/**
 * Bug kind 1, a branch condition that sends some inputs down a slow path (Song and Lu's MySQL#26527
 * and MySQL#44723: "change the branch condition"). A storage engine turns on a write cache for bulk
 * inserts and zero-fills it. A statement that cannot say how many rows it brings ({@code INSERT ...
 * SELECT} reports 0) is treated like a huge one, so every tiny {@code INSERT ... SELECT} pays for a
 * 256 KiB zero-fill. Good inputs are plain inserts; bad inputs, from a migration script, mix in
 * many small {@code INSERT ... SELECT}s. Both have the same number and size of statements.
 *
 * <p>Usage: {@code BulkLoadWriteCache good|bad <seed>}.
 */
public final class BulkLoadWriteCache {
  /** What a statement reports when it cannot tell how many rows it will insert. */
  static final int UNKNOWN_ROWS = 0;

  /** Inserts of more rows than this are worth a write cache. */
  static final int WRITE_CACHE_MIN_ROWS = 40;

  static final int WRITE_CACHE_BYTES = 256 << 10;

  private BulkLoadWriteCache() {}

  public static void main(String[] args) {
    WorkloadArgs run = WorkloadArgs.parse(args);
    Inputs.Statement[] statements = Inputs.generate(run.bad(), run.seed());
    long started = System.nanoTime();
    Table table = new Table();
    long checksum = 0;
    for (int s = 0; s < statements.length; s++) {
      checksum += insert(table, statements[s].rows(), statements[s].expectedRows());
    }
    System.out.println(run.describe(checksum + table.rowCount, System.nanoTime() - started));
  }

  static long insert(Table table, int[] rows, int expectedRows) {
    // The engine's rule: cache bulk inserts. Unknown counts are wrongly taken for bulk ones.
    if (expectedRows == UNKNOWN_ROWS) { // ROOT CAUSE: branch not taken (the count is unknown)
      table.enableWriteCache();
    } else if (expectedRows > WRITE_CACHE_MIN_ROWS) {
      table.enableWriteCache();
    }
    long sum = 0;
    for (int i = 0; i < rows.length; i++) {
      sum += table.write(rows[i]);
    }
    table.disableWriteCache();
    return sum;
  }

  /** A table of int rows, with a hash of each page, written straight or through a write cache. */
  static final class Table {
    private final int[] pages = new int[4096];
    private byte[] writeCache;
    private int cached;
    long rowCount;

    void enableWriteCache() {
      // Zero-filled on every use (the real bug's patch made this cheaper).
      writeCache = new byte[WRITE_CACHE_BYTES];
      cached = 0;
    }

    void disableWriteCache() {
      writeCache = null;
    }

    int write(int row) {
      int page = (row & 0x7fffffff) % pages.length;
      pages[page] = pages[page] * 31 + row;
      if (writeCache != null) {
        writeCache[cached++ & (WRITE_CACHE_BYTES - 1)] = (byte) row;
      }
      rowCount++;
      return pages[page] & 0xff;
    }
  }

  /** The input generator, not part of the program under diagnosis: the agent excludes it. */
  static final class Inputs {
    record Statement(int[] rows, int expectedRows) {}

    private Inputs() {}

    static Statement[] generate(boolean bad, long seed) {
      SplittableRandom random = new SplittableRandom(seed);
      Statement[] statements = new Statement[4000 + random.nextInt(1000)];
      for (int s = 0; s < statements.length; s++) {
        // Mostly small inserts, and a few bulk ones, in good and bad inputs alike.
        int count = random.nextInt(100) < 4 ? 50 + random.nextInt(150) : 1 + random.nextInt(8);
        int[] rows = new int[count];
        for (int i = 0; i < count; i++) {
          rows[i] = random.nextInt();
        }
        // Bad inputs: about a third of the statements are INSERT ... SELECT with unknown counts.
        boolean insertSelect = bad && random.nextInt(100) < 30;
        statements[s] = new Statement(rows, insertSelect ? UNKNOWN_ROWS : count);
      }
      return statements;
    }
  }
}
