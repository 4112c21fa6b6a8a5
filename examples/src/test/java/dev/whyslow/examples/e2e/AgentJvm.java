package dev.whyslow.examples.e2e;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Starts a workload from the examples jar in a child JVM under the shaded agent with {@code
 * -Xverify:all}, with a hard timeout. The JDK is the one running the test unless {@code
 * it.java.home} names another.
 */
final class AgentJvm {
  record Result(int exitCode, String stdout, String stderr) {}

  private AgentJvm() {}

  static Path agentJar() {
    return existing("whyslow.agent.jar");
  }

  static Path examplesJar() {
    return existing("whyslow.examples.jar");
  }

  private static Path existing(String property) {
    String value = System.getProperty(property);
    if (value == null || !Files.isRegularFile(Path.of(value))) {
      throw new IllegalStateException(
          property + "=" + value + " is not a file; run the tests through mvn verify");
    }
    return Path.of(value);
  }

  static Path javaHome() {
    return Path.of(System.getProperty("it.java.home", System.getProperty("java.home")));
  }

  /**
   * The JDK under test and every JDK 25 or newer installed beside it (siblings of its directory
   * with a {@code release} file), so the pipeline is checked on the oldest and newest supported
   * JDKs.
   */
  static List<Path> javaHomes() throws IOException {
    List<Path> homes = new ArrayList<>();
    Path current = javaHome().toRealPath();
    homes.add(current);
    Path parent = current.getParent();
    if (parent == null) {
      return homes;
    }
    try (var siblings = Files.list(parent)) {
      for (Path dir : siblings.sorted().toList()) {
        Path real = dir.toRealPath();
        if (!homes.contains(real)
            && Files.isExecutable(real.resolve("bin/java"))
            && majorVersion(real) >= 25) {
          homes.add(real);
        }
      }
    }
    return homes;
  }

  private static int majorVersion(Path home) {
    try {
      for (String line : Files.readAllLines(home.resolve("release"), StandardCharsets.UTF_8)) {
        if (line.startsWith("JAVA_VERSION=")) {
          String version = line.substring("JAVA_VERSION=".length()).replace("\"", "");
          return Integer.parseInt(version.split("[.\\-+]")[0]);
        }
      }
    } catch (IOException | RuntimeException e) {
      // Not a JDK we can read: skip it.
    }
    return -1;
  }

  static Result run(String agentArgs, String mainClass, String... args)
      throws IOException, InterruptedException {
    return run(javaHome(), agentArgs, mainClass, args);
  }

  static Result run(Path javaHome, String agentArgs, String mainClass, String... args)
      throws IOException, InterruptedException {
    List<String> command = new ArrayList<>();
    command.add(javaHome.resolve("bin").resolve("java").toString());
    command.add("-Xverify:all");
    command.add("-XX:-UsePerfData");
    command.add("-javaagent:" + agentJar() + "=" + agentArgs);
    command.add("-cp");
    command.add(examplesJar().toString());
    command.add(mainClass);
    command.addAll(List.of(args));
    Path out = Files.createTempFile("whyslow-e2e", ".out");
    Path err = Files.createTempFile("whyslow-e2e", ".err");
    try {
      Process process =
          new ProcessBuilder(command)
              .redirectOutput(out.toFile())
              .redirectError(err.toFile())
              .start();
      if (!process.waitFor(120, TimeUnit.SECONDS)) {
        process.destroyForcibly();
        throw new AssertionError("workload did not finish in 120 s: " + command);
      }
      return new Result(
          process.exitValue(),
          Files.readString(out, StandardCharsets.UTF_8),
          Files.readString(err, StandardCharsets.UTF_8));
    } finally {
      Files.deleteIfExists(out);
      Files.deleteIfExists(err);
    }
  }
}
