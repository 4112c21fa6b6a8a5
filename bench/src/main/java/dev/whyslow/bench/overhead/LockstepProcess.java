package dev.whyslow.bench.overhead;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A JVM running {@code examples}' {@code LockstepRounds}: started and warmed up by {@link #start},
 * one block of rounds per {@link #block}, ended by {@link #close}. Its output is kept, so a failure
 * reports what the JVM said.
 */
final class LockstepProcess implements AutoCloseable {
  private static final Pattern BLOCK = Pattern.compile("block_ns=(\\d+) checksum=(-?\\d+)");

  /** What one block took, and what it computed. */
  record Block(long nanos, long checksum) {}

  private final List<String> command;
  private final Process process;
  private final BufferedReader output;
  private final Writer input;
  private final List<String> said = new ArrayList<>();

  private LockstepProcess(List<String> command, Process process) {
    this.command = command;
    this.process = process;
    this.output =
        new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
    this.input = new OutputStreamWriter(process.getOutputStream(), StandardCharsets.UTF_8);
  }

  /** Starts {@code command} and returns once it has said it is warmed up. */
  static LockstepProcess start(List<String> command) throws IOException {
    Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
    LockstepProcess p = new LockstepProcess(command, process);
    try {
      p.readUntil(line -> line.equals("ready"));
    } catch (IOException | RuntimeException e) {
      process.destroyForcibly();
      throw e;
    }
    return p;
  }

  /** Runs one block and returns its time and checksum. */
  Block block() throws IOException {
    input.write("block\n");
    input.flush();
    Matcher m = BLOCK.matcher(readUntil(line -> BLOCK.matcher(line).matches()));
    if (!m.matches()) {
      throw new IllegalStateException("unreachable: " + m);
    }
    return new Block(Long.parseLong(m.group(1)), Long.parseLong(m.group(2)));
  }

  private String readUntil(Predicate<String> wanted) throws IOException {
    for (String line; (line = output.readLine()) != null; ) {
      said.add(line);
      if (wanted.test(line)) {
        return line;
      }
    }
    throw new IOException("workload ended early: " + command + "\n" + String.join("\n", said));
  }

  @Override
  public void close() throws IOException {
    try {
      input.write("end\n");
      input.close();
    } catch (IOException alreadyGone) {
      // The JVM ended on its own; its exit status says how.
    }
    boolean ended;
    try {
      ended = process.waitFor(1, TimeUnit.MINUTES);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      ended = false;
    }
    if (!ended) {
      process.destroyForcibly();
      throw new IllegalStateException("workload did not end: " + command);
    }
    if (process.exitValue() != 0) {
      throw new IllegalStateException(
          "workload exited "
              + process.exitValue()
              + ": "
              + command
              + "\n"
              + String.join("\n", said));
    }
  }
}
