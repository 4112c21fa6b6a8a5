package dev.whyslow.bench.latency;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;

/**
 * A process's CPU time by kind of thread, from Linux's {@code /proc/<pid>/task}: the shop's request
 * threads, its HTTP dispatcher, the agent's threads, the JIT, the collector and the VM, the rest.
 * In clock ticks (10 ms on most kernels), so only a span of many seconds reads sensibly. Elsewhere,
 * or when a thread ends between listing and reading, what cannot be read is left out.
 */
final class ThreadCpu {
  /** The kind of the shop's request threads (its executor's pool). */
  static final String REQUESTS = "requests";

  private static final double TICK_SECONDS = 0.01; // USER_HZ, 100 on Linux

  private ThreadCpu() {}

  /** CPU seconds so far per kind of thread of {@code pid}; empty where /proc is not there. */
  static Map<String, Double> of(long pid) {
    Map<String, Double> byKind = new TreeMap<>();
    Path tasks = Path.of("/proc", Long.toString(pid), "task");
    if (!Files.isDirectory(tasks)) {
      return byKind;
    }
    try (DirectoryStream<Path> threads = Files.newDirectoryStream(tasks)) {
      for (Path thread : threads) {
        try {
          String stat = Files.readString(thread.resolve("stat"));
          int close = stat.lastIndexOf(')');
          String name = stat.substring(stat.indexOf('(') + 1, close);
          // After the name: state is field 3, utime and stime fields 14 and 15.
          String[] rest = stat.substring(close + 2).split(" ");
          double seconds = (Long.parseLong(rest[11]) + Long.parseLong(rest[12])) * TICK_SECONDS;
          byKind.merge(kindOf(name), seconds, Double::sum);
        } catch (IOException | RuntimeException gone) {
          // The thread ended meanwhile.
        }
      }
    } catch (IOException e) {
      return byKind;
    }
    return byKind;
  }

  static String kindOf(String threadName) {
    if (threadName.startsWith("pool-")) {
      return REQUESTS;
    }
    if (threadName.startsWith("HTTP-Dispatcher")) {
      return "dispatcher";
    }
    if (threadName.startsWith("whyslow")) {
      return "agent";
    }
    if (threadName.startsWith("C1 Compiler") || threadName.startsWith("C2 Compiler")) {
      return "jit";
    }
    if (threadName.startsWith("GC Thread")
        || threadName.startsWith("G1 ")
        || threadName.startsWith("VM ")) {
      return "gc+vm";
    }
    return "other";
  }

  /** {@code after} less {@code before}, kind by kind. */
  static Map<String, Double> minus(Map<String, Double> after, Map<String, Double> before) {
    Map<String, Double> spent = new TreeMap<>();
    after.forEach((kind, s) -> spent.put(kind, s - before.getOrDefault(kind, 0.0)));
    return spent;
  }
}
