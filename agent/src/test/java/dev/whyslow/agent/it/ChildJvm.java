package dev.whyslow.agent.it;

import static org.assertj.core.api.Assertions.fail;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

/** Starts a test program in a separate JVM with a hard timeout and captures what it printed. */
final class ChildJvm {
  static final Duration TIMEOUT = Duration.ofSeconds(90);

  /** What one child JVM did. */
  record Result(int exitCode, String stdout, String stderr, Duration elapsed) {
    /** stderr without the agent's own lines and the JVM's JAVA_TOOL_OPTIONS notice. */
    String applicationStderr() {
      return stderr
          .lines()
          .filter(l -> !l.startsWith("[whyslow]") && !l.startsWith("Picked up JAVA_TOOL_OPTIONS"))
          .collect(Collectors.joining("\n"));
    }

    List<String> agentLines() {
      return stderr.lines().filter(l -> l.startsWith("[whyslow]")).toList();
    }
  }

  private ChildJvm() {}

  static Path agentJar() {
    return Path.of(System.getProperty("whyslow.agent.jar", "target/whyslow-agent.jar"));
  }

  static Path testClasses() {
    return Path.of(System.getProperty("whyslow.test.classes", "target/test-classes"));
  }

  static Result run(
      Jdks.Jdk jdk, List<String> jvmOptions, String mainClass, List<String> args, Path workDir)
      throws IOException, InterruptedException {
    return run(jdk, jvmOptions, mainClass, args, workDir, Map.of());
  }

  static Result run(
      Jdks.Jdk jdk,
      List<String> jvmOptions,
      String mainClass,
      List<String> args,
      Path workDir,
      Map<String, String> environment)
      throws IOException, InterruptedException {
    return run(jdk, jvmOptions, testClasses(), mainClass, args, workDir, environment);
  }

  /** {@code mainClass} from {@code classPath} (a directory or jar) rather than the test classes. */
  static Result run(
      Jdks.Jdk jdk,
      List<String> jvmOptions,
      Path classPath,
      String mainClass,
      List<String> args,
      Path workDir,
      Map<String, String> environment)
      throws IOException, InterruptedException {
    List<String> command = new ArrayList<>();
    command.add(jdk.java().toString());
    command.addAll(jvmOptions);
    command.add("-cp");
    command.add(classPath.toString());
    command.add(mainClass);
    command.addAll(args);
    Files.createDirectories(workDir);
    Path out = Files.createTempFile(workDir, "stdout", ".txt");
    Path err = Files.createTempFile(workDir, "stderr", ".txt");
    ProcessBuilder builder =
        new ProcessBuilder(command)
            .directory(workDir.toFile())
            .redirectOutput(out.toFile())
            .redirectError(err.toFile());
    builder.environment().remove("JAVA_TOOL_OPTIONS");
    builder.environment().putAll(environment);
    long start = System.nanoTime();
    Process process = builder.start();
    if (!process.waitFor(TIMEOUT.toSeconds(), TimeUnit.SECONDS)) {
      process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
      fail(
          "%s did not finish within %s; stderr so far:%n%s",
          command, TIMEOUT, Files.readString(err, StandardCharsets.UTF_8));
    }
    Duration elapsed = Duration.ofNanos(System.nanoTime() - start);
    return new Result(
        process.exitValue(),
        Files.readString(out, StandardCharsets.UTF_8),
        Files.readString(err, StandardCharsets.UTF_8),
        elapsed);
  }

  static String javaagent(String args) {
    return "-javaagent:" + agentJar().toAbsolutePath() + (args.isEmpty() ? "" : "=" + args);
  }

  /**
   * The agent attached as the JVMTI library that {@code -javaagent} loads, which keeps the CDS
   * archive's module graph (README, "Attaching without rebuilding the module graph").
   */
  static String agentlib(String args) {
    return "-agentlib:instrument="
        + agentJar().toAbsolutePath()
        + (args.isEmpty() ? "" : "=" + args);
  }
}
