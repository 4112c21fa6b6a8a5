package dev.whyslow.bench.latency;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * A process's CPU time by kind of thread, from Linux's {@code /proc/<pid>/task}: the shop's request
 * threads, its HTTP dispatcher, the agent's threads, the JIT, the collector and the VM, the rest.
 * Each thread's time comes from its {@code schedstat} (nanoseconds on the CPU), else from the clock
 * ticks of its {@code stat} (10 ms on most kernels, too coarse for threads that wake for a
 * millisecond at a time). Elsewhere, or when a thread ends between listing and reading, what cannot
 * be read is left out.
 *
 * <p>As a command, {@code ThreadCpu <pid> [seconds=60]} prints a running JVM's CPU per kind of
 * thread over that window, and the agent's threads one by one, in milliseconds per second.
 */
public final class ThreadCpu {
  /** The kind of the shop's request threads (its executor's pool). */
  static final String REQUESTS = "requests";

  private static final double TICK_SECONDS = 0.01; // USER_HZ, 100 on Linux

  private ThreadCpu() {}

  public static void main(String[] args) throws InterruptedException {
    long pid;
    long seconds;
    try {
      if (args.length < 1 || args.length > 2) {
        throw new IllegalArgumentException("expected <pid> [seconds]");
      }
      pid = number("pid", args[0]);
      seconds = args.length > 1 ? number("seconds", args[1]) : 60;
      if (seconds < 1 || seconds > 86_400) {
        throw new IllegalArgumentException("seconds must be 1 to 86400, was " + seconds);
      }
    } catch (IllegalArgumentException e) {
      System.err.println("usage: ThreadCpu <pid> [seconds=60]: " + e.getMessage());
      System.exit(2);
      return;
    }
    if (!Files.isDirectory(tasks(pid))) {
      System.err.println("ThreadCpu: no process " + pid + " under /proc (Linux only)");
      System.exit(2);
    }
    Map<String, Double> before = byThread(pid);
    Thread.sleep(seconds * 1_000);
    Map<String, Double> spent = minus(byThread(pid), before);
    Map<String, Double> kinds = byKind(spent);
    double all = spent.values().stream().mapToDouble(Double::doubleValue).sum();
    kinds.forEach((kind, s) -> print(kind, s, seconds));
    spent.forEach(
        (name, s) -> {
          if (kindOf(name).equals("agent")) {
            print("  " + name, s, seconds);
          }
        });
    print("whole process", all, seconds);
  }

  private static void print(String what, double cpuSeconds, long seconds) {
    System.out.printf(Locale.ROOT, "%-22s %9.3f ms/s%n", what, cpuSeconds * 1_000 / seconds);
  }

  /** CPU seconds so far per kind of thread of {@code pid}; empty where /proc is not there. */
  static Map<String, Double> of(long pid) {
    return byKind(byThread(pid));
  }

  /** Seconds per thread name summed by kind of thread. */
  private static Map<String, Double> byKind(Map<String, Double> byThread) {
    Map<String, Double> kinds = new TreeMap<>();
    byThread.forEach((name, s) -> kinds.merge(kindOf(name), s, Double::sum));
    return kinds;
  }

  private static long number(String what, String text) {
    try {
      return Long.parseLong(text.trim());
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(what + " must be a whole number, was '" + text + "'");
    }
  }

  /** CPU seconds so far per thread name of {@code pid} (threads of one name summed). */
  static Map<String, Double> byThread(long pid) {
    Map<String, Double> byName = new TreeMap<>();
    Path tasks = tasks(pid);
    if (!Files.isDirectory(tasks)) {
      return byName;
    }
    try (DirectoryStream<Path> threads = Files.newDirectoryStream(tasks)) {
      for (Path thread : threads) {
        try {
          String stat = Files.readString(thread.resolve("stat"));
          int close = stat.lastIndexOf(')');
          String name = stat.substring(stat.indexOf('(') + 1, close);
          byName.merge(name, cpuSeconds(thread, stat.substring(close + 2)), Double::sum);
        } catch (IOException | RuntimeException gone) {
          // The thread ended meanwhile.
        }
      }
    } catch (IOException e) {
      return byName;
    }
    return byName;
  }

  private static Path tasks(long pid) {
    return Path.of("/proc", Long.toString(pid), "task");
  }

  /** A thread's CPU seconds: schedstat's nanoseconds, else stat's ticks ({@code afterName}). */
  private static double cpuSeconds(Path thread, String afterName) throws IOException {
    Path schedstat = thread.resolve("schedstat");
    if (Files.isReadable(schedstat)) {
      String first = Files.readString(schedstat).trim().split(" ")[0];
      return Long.parseLong(first) / 1e9;
    }
    // After the name: state is field 3, utime and stime fields 14 and 15.
    String[] rest = afterName.split(" ");
    return (Long.parseLong(rest[11]) + Long.parseLong(rest[12])) * TICK_SECONDS;
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
