package dev.whyslow.bench.overhead;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One run of a workload from {@code examples} in a JVM of its own: the time it measured after its
 * own warm-up and the checksum of its work, which must not change with the agent.
 */
record WorkloadProcess(double elapsedMs, String checksum) {
  private static final Pattern ELAPSED = Pattern.compile("elapsed_ms=([0-9.]+) checksum=(-?\\d+)");

  /** Runs {@code command} to its end; fails with its whole output if it failed or said nothing. */
  static WorkloadProcess run(List<String> command) throws IOException, InterruptedException {
    Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
    StringBuilder output = new StringBuilder();
    WorkloadProcess found = null;
    try (BufferedReader reader =
        new BufferedReader(
            new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
      for (String line; (line = reader.readLine()) != null; ) {
        output.append(line).append('\n');
        Matcher m = ELAPSED.matcher(line);
        if (m.find()) {
          found = new WorkloadProcess(Double.parseDouble(m.group(1)), m.group(2));
        }
      }
    }
    if (!process.waitFor(10, TimeUnit.MINUTES) || process.exitValue() != 0 || found == null) {
      process.destroyForcibly();
      throw new IllegalStateException("workload failed: " + command + "\n" + output);
    }
    return found;
  }
}
