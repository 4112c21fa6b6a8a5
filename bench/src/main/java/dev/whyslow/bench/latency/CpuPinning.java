package dev.whyslow.bench.latency;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.BitSet;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;

/**
 * Which CPUs the shop runs on and which the rest of the benchmark runs on, through Linux's {@code
 * taskset}. On a small machine the load generator and the daemon otherwise take turns with the
 * shop's request threads on the same cores. Pinning takes that out of the shop's latency; it does
 * not take out the shop's own collector and JIT, which then share its cores (bench/LATENCY.md).
 * Unpinned, the default, changes nothing.
 *
 * @param shopCpus the shop's CPU list in {@code taskset}'s form ({@code 1}, {@code 2-3}), or empty
 * @param otherCpus this JVM's and so the load generator's CPU list, or empty
 */
record CpuPinning(String shopCpus, String otherCpus) {
  private static final Pattern CPU_LIST = Pattern.compile("[0-9]+(-[0-9]+)?(,[0-9]+(-[0-9]+)?)*");

  /** Linux's largest CPU count (NR_CPUS) is 8192; anything past it is a typing error. */
  private static final int MAX_CPUS = 8192;

  static final CpuPinning NONE = new CpuPinning("", "");

  /**
   * {@code <shop CPUs>/<other CPUs>}, e.g. {@code 1/0}, or empty for no pinning.
   *
   * @throws IllegalArgumentException for anything else, or when both sides share a CPU
   */
  static CpuPinning parse(String text) {
    String t = text.trim();
    if (t.isEmpty()) {
      return NONE;
    }
    String[] sides = t.split("/", -1);
    if (sides.length != 2
        || !CPU_LIST.matcher(sides[0]).matches()
        || !CPU_LIST.matcher(sides[1]).matches()) {
      throw new IllegalArgumentException(
          "expected <shop CPUs>/<other CPUs> as taskset takes them, e.g. 1/0 or 2-3/0-1; got '"
              + text
              + "'");
    }
    BitSet shop = cpus(sides[0]);
    BitSet others = cpus(sides[1]);
    if (shop.intersects(others)) {
      shop.and(others);
      throw new IllegalArgumentException(
          "CPU "
              + shop.nextSetBit(0)
              + " is on both sides of '"
              + text
              + "': the point is to keep them apart");
    }
    return new CpuPinning(sides[0], sides[1]);
  }

  /**
   * What goes before the shop's {@code java} command: {@code taskset -c <shop CPUs>}, or nothing.
   */
  List<String> shopPrefix() {
    return shopCpus.isEmpty() ? List.of() : List.of("taskset", "-c", shopCpus);
  }

  /**
   * Moves every thread of this JVM to the other CPUs; the processes it starts later inherit them.
   *
   * @throws IOException when {@code taskset} is missing or refuses (a CPU the machine lacks)
   */
  void pinThisProcess() throws IOException {
    if (otherCpus.isEmpty()) {
      return;
    }
    String pid = Long.toString(ProcessHandle.current().pid());
    Process taskset =
        new ProcessBuilder("taskset", "-a", "-p", "-c", otherCpus, pid)
            .redirectErrorStream(true)
            .start();
    String output = new String(taskset.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    try {
      if (!taskset.waitFor(30, TimeUnit.SECONDS) || taskset.exitValue() != 0) {
        throw new IOException("taskset -a -p -c " + otherCpus + " failed: " + output.strip());
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted while running taskset", e);
    }
  }

  /** For the report's header. */
  String describe() {
    return shopCpus.isEmpty()
        ? ""
        : "; shop pinned to CPU " + shopCpus + ", daemon and load generator to CPU " + otherCpus;
  }

  /** The CPUs of a list already matched against {@link #CPU_LIST}. */
  private static BitSet cpus(String list) {
    BitSet cpus = new BitSet();
    for (String range : list.split(",")) {
      String[] ends = range.split("-");
      int from = cpuNumber(ends[0]);
      int to = ends.length == 1 ? from : cpuNumber(ends[1]);
      if (to < from) {
        throw new IllegalArgumentException("the range " + range + " runs backwards");
      }
      cpus.set(from, to + 1);
    }
    return cpus;
  }

  private static int cpuNumber(String digits) {
    if (digits.length() > 4 || Integer.parseInt(digits) >= MAX_CPUS) {
      throw new IllegalArgumentException(
          "CPU " + digits + " is past " + (MAX_CPUS - 1) + ", the highest CPU number Linux allows");
    }
    return Integer.parseInt(digits);
  }
}
