package dev.whyslow.storage.rocksdb;

import dev.whyslow.protocol.Run;
import dev.whyslow.storage.RunOrigin;
import dev.whyslow.storage.StoreFixtures;
import dev.whyslow.storage.StoredRun;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The process {@link RocksDbCrashIT} kills: opens a store and writes batches of runs forever,
 * printing {@code ack <run id> <sequence>} for each run once {@code putRuns} has returned. Runs are
 * {@link StoreFixtures#deterministicRun} of their sequence, so the parent knows their content.
 */
public final class RocksDbCrashChild {
  static final RunOrigin ORIGIN = new RunOrigin("crash", "child", "1");
  static final long T0 = 1_700_000_000_000L;
  static final int BATCH = 25;

  private RocksDbCrashChild() {}

  static Run runFor(long sequence) {
    // Several runs share each millisecond, as they do under load.
    return StoreFixtures.deterministicRun(sequence, T0 + sequence / 3);
  }

  public static void main(String[] args) {
    PrintStream out = System.out;
    RocksDbStore store =
        RocksDbStore.open(RocksDbConfig.defaults(Path.of(args[0])).withMemory(16 << 20, 8 << 20));
    out.println("ready");
    out.flush();
    for (long sequence = 0; ; ) {
      List<Run> batch = new ArrayList<>(BATCH);
      for (int i = 0; i < BATCH; i++) {
        batch.add(runFor(sequence++));
      }
      StringBuilder acks = new StringBuilder();
      for (StoredRun stored : store.putRuns(ORIGIN, batch)) {
        acks.append("ack ")
            .append(stored.runId())
            .append(' ')
            .append(stored.run().sequence())
            .append('\n');
      }
      out.print(acks);
      out.flush();
    }
  }
}
