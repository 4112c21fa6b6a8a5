package dev.whyslow.bench.startup;

import static dev.whyslow.bench.MedianInterval.median;

import dev.whyslow.bench.AgentOption;
import dev.whyslow.bench.ClassJar;
import dev.whyslow.bench.MedianInterval;
import dev.whyslow.bench.overhead.NoopAgentJar;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * What an agent adds to a JVM's start-up: the time to {@code main} ({@link TimeToMain}) with one
 * agent against another, or against none, the two arms' JVMs run one after the other in rounds
 * whose order alternates, so that neither arm always starts on a host the other has just warmed.
 * The main class comes from a jar of its own, so that the class path costs the JVM nothing to open.
 *
 * <p>Usage: {@code StartupBenchmark <agent.jar|noop> <baseline agent.jar|noop|none> [rounds=25]
 * [agentArgs]}; both agents get {@code agentArgs}, by default a scope matching no class, so that
 * the figure is the agent's own start-up. {@code -Dbench.attach} picks the attach form as in the
 * other benchmarks. It prints each round, each arm's median and range, and the median of the
 * rounds' differences with its interval.
 */
public final class StartupBenchmark {
  /** The baseline that attaches no agent. */
  static final String NONE = "none";

  private StartupBenchmark() {}

  public static void main(String[] args) throws Exception {
    if (args.length < 2) {
      System.err.println(
          "usage: StartupBenchmark <agent.jar|noop> <baseline agent.jar|noop|none> [rounds=25]"
              + " [agentArgs]");
      System.exit(2);
    }
    String agent = NoopAgentJar.resolve(args[0]);
    String baseline = NONE.equals(args[1]) ? NONE : NoopAgentJar.resolve(args[1]);
    int rounds = args.length > 2 ? rounds(args[2]) : 25;
    String agentArgs =
        args.length > 3
            ? args[3]
            : "service=startup-bench,include=dev.whyslow.nothing,shutdown.flush.timeout.ms=0";
    for (String jar : List.of(agent, baseline)) {
      if (!jar.equals(NONE) && !Files.isRegularFile(Path.of(jar))) {
        throw new IllegalArgumentException(jar + " is not a file; build it with mvn package");
      }
    }
    Path mainJar = mainJar();

    List<Double> with = new ArrayList<>();
    List<Double> without = new ArrayList<>();
    List<Double> differences = new ArrayList<>();
    for (int round = 1; round <= rounds; round++) {
      boolean agentFirst = round % 2 == 1;
      long a;
      long b;
      if (agentFirst) {
        a = timeToMain(mainJar, agent, agentArgs);
        b = timeToMain(mainJar, baseline, agentArgs);
      } else {
        b = timeToMain(mainJar, baseline, agentArgs);
        a = timeToMain(mainJar, agent, agentArgs);
      }
      with.add((double) a);
      without.add((double) b);
      differences.add((double) (a - b));
      System.out.printf(
          Locale.ROOT,
          "round %2d  with %4d ms  without %4d ms  difference %+4d ms%s%n",
          round,
          a,
          b,
          a - b,
          agentFirst ? "  (agent's JVM first)" : "");
    }
    System.out.println();
    System.out.printf(Locale.ROOT, "with     %s%n", summary(with));
    System.out.printf(Locale.ROOT, "without  %s%n", summary(without));
    MedianInterval interval = MedianInterval.of(differences, 0.95);
    System.out.printf(
        Locale.ROOT,
        "median of round differences %+.1f ms; 95 %% interval for it %+.1f .. %+.1f ms, %.1f %%"
            + " coverage%n",
        median(differences),
        interval.low(),
        interval.high(),
        interval.coverage() * 100);
  }

  private static int rounds(String text) {
    int rounds;
    try {
      rounds = Integer.parseInt(text);
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("rounds must be a whole number, not '" + text + "'", e);
    }
    if (rounds < 1) {
      throw new IllegalArgumentException("rounds must be at least 1, not " + rounds);
    }
    return rounds;
  }

  private static String summary(List<Double> values) {
    return String.format(
        Locale.ROOT,
        "median %.1f ms (%.0f .. %.0f) of %d JVMs",
        median(values),
        Collections.min(values),
        Collections.max(values),
        values.size());
  }

  /** A jar holding {@link TimeToMain} alone. */
  static Path mainJar() throws IOException {
    return ClassJar.write("whyslow-time-to-main-", TimeToMain.class, Map.of());
  }

  /** One JVM's time to {@code main}, with {@code agent} attached unless it is {@code none}. */
  static long timeToMain(Path mainJar, String agent, String agentArgs)
      throws IOException, InterruptedException {
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    if (!agent.equals(NONE)) {
      command.add(AgentOption.of(agent, agentArgs));
    }
    command.add("-cp");
    command.add(mainJar.toString());
    command.add(TimeToMain.class.getName());
    Path err = Files.createTempFile("whyslow-startup-stderr-", ".txt");
    try {
      Process process = new ProcessBuilder(command).redirectError(err.toFile()).start();
      String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      if (!process.waitFor(60, TimeUnit.SECONDS)) {
        process.destroyForcibly();
        throw new IllegalStateException(command + " did not finish in 60 s");
      }
      if (process.exitValue() != 0) {
        throw new IllegalStateException(
            command + " exited with " + process.exitValue() + ": " + Files.readString(err).strip());
      }
      return parsedTime(command, out);
    } finally {
      Files.deleteIfExists(err);
    }
  }

  private static long parsedTime(List<String> command, String out) {
    try {
      return Long.parseLong(out.strip());
    } catch (NumberFormatException e) {
      throw new IllegalStateException(command + " printed no time to main: " + out, e);
    }
  }
}
