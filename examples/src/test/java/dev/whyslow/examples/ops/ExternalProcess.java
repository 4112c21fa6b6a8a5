package dev.whyslow.examples.ops;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A child process of an operations test with its output in a log file, so the test can wait for a
 * line, print the log when it fails and always kill the process.
 */
final class ExternalProcess implements AutoCloseable {
  private final String name;
  private final Process process;
  private final Path log;

  private ExternalProcess(String name, Process process, Path log) {
    this.name = name;
    this.process = process;
    this.log = log;
  }

  static ExternalProcess start(String name, List<String> command, Path logDir) throws IOException {
    Path log = logDir.resolve(name + ".log");
    Process process =
        new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
    return new ExternalProcess(name, process, log);
  }

  /** Waits for a log line matching {@code pattern} and returns its first group. */
  String awaitLine(Pattern pattern, Duration timeout) throws IOException, InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (System.nanoTime() < deadline) {
      Optional<String> found = findLine(pattern);
      if (found.isPresent()) {
        return found.get();
      }
      if (!process.isAlive()) {
        throw new AssertionError(name + " exited with " + process.exitValue() + ":\n" + tail(60));
      }
      Thread.sleep(50);
    }
    throw new AssertionError(
        name + " printed no line matching " + pattern + " in " + timeout + ":\n" + tail(60));
  }

  private Optional<String> findLine(Pattern pattern) throws IOException {
    for (String line : Files.readAllLines(log, StandardCharsets.UTF_8)) {
      Matcher m = pattern.matcher(line);
      if (m.find()) {
        return Optional.of(m.groupCount() > 0 ? m.group(1) : line);
      }
    }
    return Optional.empty();
  }

  boolean isAlive() {
    return process.isAlive();
  }

  String name() {
    return name;
  }

  /** The last {@code lines} lines of the process's output. */
  String tail(int lines) {
    try {
      List<String> all = Files.readAllLines(log, StandardCharsets.UTF_8);
      return String.join("\n", all.subList(Math.max(0, all.size() - lines), all.size()));
    } catch (IOException e) {
      return "(cannot read " + log + ": " + e + ")";
    }
  }

  @Override
  public void close() {
    process.destroy();
    try {
      if (!process.waitFor(10, TimeUnit.SECONDS)) {
        process.destroyForcibly();
        process.waitFor(10, TimeUnit.SECONDS);
      }
    } catch (InterruptedException e) {
      process.destroyForcibly();
      Thread.currentThread().interrupt();
    }
  }
}
