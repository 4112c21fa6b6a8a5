package dev.whyslow.storage.rocksdb;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import dev.whyslow.storage.RunQuery;
import dev.whyslow.storage.StoredRun;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Kills a writing process with SIGKILL and checks that every run it had acknowledged is in the
 * store afterwards, unchanged, and that no batch was stored in part: the WAL (not fsynced) is
 * enough for a process crash.
 */
@Timeout(value = 3, unit = TimeUnit.MINUTES)
class RocksDbCrashIT {
  private static final int ACKS_BEFORE_KILL = 3_000;
  private static final String EOF = "\u0000eof";

  @TempDir Path tmp;

  @Test
  void everyAcknowledgedRunSurvivesAKill() throws Exception {
    Path data = tmp.resolve("db");
    Path stderr = tmp.resolve("child.err");
    Process child =
        new ProcessBuilder(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx128m",
                "-XX:+UseSerialGC",
                "-XX:TieredStopAtLevel=1",
                "-cp",
                System.getProperty("java.class.path"),
                RocksDbCrashChild.class.getName(),
                data.toString())
            .redirectError(stderr.toFile())
            .start();
    Map<Long, Long> acked = new LinkedHashMap<>();
    try {
      BlockingQueue<String> lines = readLines(child);
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(90);
      while (acked.size() < ACKS_BEFORE_KILL) {
        String line = lines.poll(Math.max(1, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
        if (line == null || line.equals(EOF)) {
          fail(
              "child stopped or stalled after %d acks; its stderr:%n%s",
              acked.size(), Files.readString(stderr));
        }
        if (line.startsWith("ack ")) {
          String[] parts = line.split(" ");
          acked.put(Long.parseLong(parts[1]), Long.parseLong(parts[2]));
        }
      }
    } finally {
      child.destroyForcibly(); // SIGKILL: no shutdown hooks, no clean close of RocksDB
      assertThat(child.waitFor(30, TimeUnit.SECONDS)).as("child exited after SIGKILL").isTrue();
    }

    try (RocksDbStore store =
        RocksDbStore.open(RocksDbConfig.defaults(data).withMemory(16 << 20, 8 << 20))) {
      for (Map.Entry<Long, Long> ack : acked.entrySet()) {
        StoredRun expected =
            new StoredRun(
                ack.getKey(), RocksDbCrashChild.ORIGIN, RocksDbCrashChild.runFor(ack.getValue()));
        assertThat(store.run(ack.getKey()))
            .as("acknowledged run %d", ack.getKey())
            .contains(expected);
      }

      List<StoredRun> all = store.runs(RunQuery.all());
      assertThat(all.size()).as("whole batches only").isGreaterThanOrEqualTo(acked.size());
      assertThat(all.size() % RocksDbCrashChild.BATCH).as("whole batches only").isZero();
      for (StoredRun s : all) {
        assertThat(s.run()).isEqualTo(RocksDbCrashChild.runFor(s.run().sequence()));
      }
      assertThat(store.services().get(0).runCount()).isEqualTo(all.size());

      // Ids handed out after the crash must not collide with the ones before it.
      Set<Long> ids = new HashSet<>();
      all.forEach(s -> ids.add(s.runId()));
      List<StoredRun> after =
          store.putRuns(RocksDbCrashChild.ORIGIN, List.of(RocksDbCrashChild.runFor(0)));
      assertThat(ids).doesNotContain(after.get(0).runId());
    }
  }

  /** Lines of the child's stdout, then {@link #EOF}; a daemon thread so it never blocks exit. */
  private static BlockingQueue<String> readLines(Process child) {
    BlockingQueue<String> lines = new LinkedBlockingQueue<>();
    Thread reader =
        new Thread(
            () -> {
              try (BufferedReader in =
                  new BufferedReader(
                      new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8))) {
                for (String line; (line = in.readLine()) != null; ) {
                  lines.add(line);
                }
              } catch (IOException e) {
                // The pipe breaks when the child is killed: that is the end.
              } finally {
                lines.add(EOF);
              }
            },
            "crash-child-stdout");
    reader.setDaemon(true);
    reader.start();
    return lines;
  }
}
