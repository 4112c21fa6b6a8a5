package dev.whyslow.examples.eval;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.OperatingSystemMXBean;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;

/** One line describing the machine the evaluation ran on, for the table's readers. */
final class Machine {
  private Machine() {}

  static String describe() {
    OperatingSystemMXBean os = ManagementFactory.getOperatingSystemMXBean();
    String memory = "";
    if (os instanceof com.sun.management.OperatingSystemMXBean sun) {
      memory = String.format(Locale.ROOT, ", %.0f GB RAM", sun.getTotalMemorySize() / 1e9);
    }
    return Runtime.getRuntime().availableProcessors()
        + " CPUs"
        + cpuModel()
        + memory
        + ", "
        + System.getProperty("os.name")
        + " "
        + System.getProperty("os.version")
        + ", "
        + System.getProperty("java.vm.name")
        + " "
        + System.getProperty("java.runtime.version")
        + ", load average "
        + String.format(Locale.ROOT, "%.1f", os.getSystemLoadAverage())
        + " at the end";
  }

  /** The CPU's model name where Linux tells it, e.g. {@code (AMD EPYC 7B13)}. */
  private static String cpuModel() {
    Path cpuinfo = Path.of("/proc/cpuinfo");
    if (!Files.isReadable(cpuinfo)) {
      return "";
    }
    try {
      for (String line : Files.readAllLines(cpuinfo, StandardCharsets.UTF_8)) {
        if (line.startsWith("model name")) {
          return " (" + line.substring(line.indexOf(':') + 1).trim() + ")";
        }
      }
    } catch (IOException e) {
      // Leave the model out.
    }
    return "";
  }
}
