package dev.whyslow.examples.eval;

import java.io.IOException;
import java.io.PrintStream;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;

/**
 * Regenerates {@code examples/EVALUATION.md}: runs every bug workload's good and bad inputs under
 * the agent against an in-process whyslowd, ranks the root causes and writes the tables. Progress
 * goes to stderr; the report to {@code --out} (or stdout).
 *
 * <pre>
 * EvaluationRunner [--out FILE] [--workloads A,B] [--runs 10] [--pool 20] [--emulated 10,100,1000]
 *     [--trials 5] [--top 10] [--probes branch,return] [--jobs 2] [--sampler-seed N] [--agent JAR]
 * </pre>
 */
public final class EvaluationRunner {
  /** How the committed table is regenerated; printed in it. */
  static final String DEFAULT_COMMAND =
      "mvn -q -DskipTests package && examples/bin/evaluate --out examples/EVALUATION.md";

  private EvaluationRunner() {}

  /** The parsed command line. */
  record Arguments(
      EvaluationSettings settings,
      List<Workload> workloads,
      Path out,
      Path agentJar,
      String command) {}

  public static void main(String[] args) throws Exception {
    Arguments arguments;
    try {
      arguments = parse(args);
    } catch (IllegalArgumentException e) {
      System.err.println("evaluate: " + e.getMessage());
      System.err.println(usage());
      System.exit(2);
      return;
    }
    String markdown = run(arguments, System.err);
    if (arguments.out() == null) {
      System.out.print(markdown);
    } else {
      Files.writeString(arguments.out(), markdown, StandardCharsets.UTF_8);
      System.err.println("[evaluate] wrote " + arguments.out());
    }
  }

  /** Runs the evaluation and returns the report's Markdown. */
  static String run(Arguments arguments, PrintStream progress)
      throws IOException, InterruptedException {
    long started = System.nanoTime();
    EvaluationSettings settings = arguments.settings();
    List<WorkloadResult> results = new ArrayList<>();
    try (EvaluationDaemon daemon = EvaluationDaemon.startOnTemporaryDirectory();
        WorkloadLauncher launcher =
            new WorkloadLauncher(
                Path.of(System.getProperty("java.home")),
                arguments.agentJar(),
                workloadClassPath(),
                daemon.agentPort(),
                settings.probes(),
                settings.jobs(),
                settings.samplerSeed())) {
      Evaluation evaluation = new Evaluation(settings, daemon, launcher, progress);
      int n = 0;
      for (Workload workload : arguments.workloads()) {
        progress.printf(
            "[evaluate] workload %d of %d: %s%n",
            ++n, arguments.workloads().size(), workload.name());
        results.add(evaluation.evaluate(workload));
      }
    }
    Duration took = Duration.ofNanos(System.nanoTime() - started);
    return new EvaluationReport(
            settings,
            results,
            arguments.command(),
            Machine.describe(),
            took,
            LocalDate.now(ZoneOffset.UTC).toString())
        .markdown();
  }

  static Arguments parse(String[] args) {
    EvaluationSettings settings = EvaluationSettings.defaults();
    List<Workload> workloads = WorkloadCatalog.all();
    Path out = null;
    String agent = System.getProperty("whyslow.agent.jar");
    String command = DEFAULT_COMMAND;
    for (int i = 0; i < args.length; i++) {
      String option = args[i];
      if (option.equals("--help") || option.equals("-h")) {
        throw new IllegalArgumentException("usage");
      }
      if (i + 1 >= args.length) {
        throw new IllegalArgumentException(option + " needs a value");
      }
      String value = args[++i];
      switch (option) {
        case "--out" -> out = Path.of(value);
        case "--workloads" -> workloads = WorkloadCatalog.named(List.of(value.split(",")));
        case "--runs" -> {
          int runs = positive(option, value);
          settings = settings.withRunsPerSide(runs, Math.max(runs, settings.poolPerSide()));
        }
        case "--pool" ->
            settings = settings.withRunsPerSide(settings.runsPerSide(), positive(option, value));
        case "--emulated" -> {
          List<Integer> counts = new ArrayList<>();
          for (String count : value.split(",")) {
            counts.add(positive(option, count.trim()));
          }
          settings = settings.withEmulatedRunCounts(counts);
        }
        case "--trials" -> settings = settings.withTrials(positive(option, value));
        case "--top" -> settings = settings.withTopN(positive(option, value));
        case "--probes" -> settings = settings.withProbes(value);
        case "--jobs" -> settings = settings.withJobs(positive(option, value));
        case "--sampler-seed" ->
            settings = settings.withSamplerSeed(OptionalLong.of(wholeNumber(option, value)));
        case "--agent" -> agent = value;
        case "--command" -> command = value;
        default -> throw new IllegalArgumentException("unknown option " + option);
      }
    }
    if (command.equals(DEFAULT_COMMAND) && settings.samplerSeed().isPresent()) {
      command =
          DEFAULT_COMMAND.replace(
              "evaluate ", "evaluate --sampler-seed " + settings.samplerSeed().getAsLong() + " ");
    }
    return new Arguments(settings, workloads, out, agentJar(agent), command);
  }

  static String usage() {
    return "usage: evaluate [--out FILE] [--workloads A,B] [--runs 10] [--pool 20]"
        + " [--emulated 10,100,1000] [--trials 5] [--top 10] [--probes branch,return] [--jobs 2]"
        + " [--sampler-seed N] [--agent JAR] [--command TEXT]";
  }

  private static int positive(String option, String value) {
    try {
      int n = Integer.parseInt(value);
      if (n >= 1) {
        return n;
      }
    } catch (NumberFormatException e) {
      // Reported below.
    }
    throw new IllegalArgumentException(option + " must be a positive integer, was '" + value + "'");
  }

  private static long wholeNumber(String option, String value) {
    try {
      return Long.parseLong(value);
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(
          option + " must be a whole number, was '" + value + "'", e);
    }
  }

  /**
   * The agent jar: {@code --agent}, else the {@code whyslow.agent.jar} system property, else the
   * build's {@code agent/target/whyslow-agent.jar} seen from the repository root or a module.
   */
  static Path agentJar(String configured) {
    List<Path> candidates = new ArrayList<>();
    if (configured != null) {
      candidates.add(Path.of(configured));
    } else {
      candidates.add(Path.of("agent", "target", "whyslow-agent.jar"));
      candidates.add(Path.of("..", "agent", "target", "whyslow-agent.jar"));
    }
    for (Path candidate : candidates) {
      if (Files.isRegularFile(candidate)) {
        return candidate.toAbsolutePath().normalize();
      }
    }
    throw new IllegalArgumentException(
        "no agent jar at "
            + candidates
            + "; build it (mvn -q -DskipTests package) or pass --agent PATH");
  }

  /** Where the workload classes are (the examples jar or classes directory). */
  static String workloadClassPath() {
    try {
      return Path.of(
              WorkloadCatalog.class.getProtectionDomain().getCodeSource().getLocation().toURI())
          .toString();
    } catch (URISyntaxException e) {
      throw new IllegalStateException("cannot locate the examples classes: " + e.getMessage(), e);
    }
  }
}
