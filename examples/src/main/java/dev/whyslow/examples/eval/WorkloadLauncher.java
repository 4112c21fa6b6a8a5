package dev.whyslow.examples.eval;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Runs workload JVMs under the shaded agent, each a labelled process run sent to the evaluation's
 * daemon, at most {@code jobs} at a time (the evaluation machine has two cores).
 */
public final class WorkloadLauncher implements AutoCloseable {
  /** How long one workload JVM may take before it is killed and the evaluation stops. */
  static final long TIMEOUT_SECONDS = 120;

  private static final Pattern ELAPSED = Pattern.compile("elapsed_us=(\\d+)");

  /**
   * One workload JVM to run.
   *
   * @param workload what to run
   * @param bad a bad (failure) or good (success) input
   * @param seed the input's seed
   * @param rate the agent's sampling rate
   * @param service the service name its run is stored under
   */
  public record Launch(Workload workload, boolean bad, long seed, double rate, String service) {
    /** The run's instance name, e.g. {@code bad-7}: which input it ran. */
    public String instance() {
      return (bad ? "bad-" : "good-") + seed;
    }
  }

  /**
   * A finished workload JVM: the time its work took (input generation excluded) and what the agent
   * said on stderr (e.g. that it could not deliver its run).
   */
  public record Outcome(Launch launch, long elapsedMicros, String stderr) {}

  /**
   * How long a workload JVM's exit may wait for its run to reach the daemon. Far above the agent's
   * default: on a loaded two-core machine a run lost at exit would leave a hole in the evaluation.
   */
  static final long FLUSH_TIMEOUT_MILLIS = 30_000;

  private final Path java;
  private final Path agentJar;
  private final String classPath;
  private final int daemonPort;
  private final String probes;
  private final OptionalLong samplerSeed;
  private final ExecutorService pool;

  /**
   * @param javaHome the JDK that runs the workloads
   * @param agentJar the shaded agent jar
   * @param classPath the class path holding the workload classes
   * @param daemonPort whyslowd's agent port on 127.0.0.1
   * @param probes the agent's {@code probes} value, e.g. {@code branch,return}
   * @param jobs most JVMs at once
   * @param samplerSeed where present, each JVM's agent gets {@code sampling.seed} from it and its
   *     input, so that the same launches sample the same evaluations every time; where empty, each
   *     agent's sampler starts at random
   */
  public WorkloadLauncher(
      Path javaHome,
      Path agentJar,
      String classPath,
      int daemonPort,
      String probes,
      int jobs,
      OptionalLong samplerSeed) {
    this.java = javaHome.resolve("bin").resolve("java");
    this.agentJar = snapshot(agentJar);
    this.classPath = classPath;
    this.daemonPort = daemonPort;
    this.probes = probes;
    this.samplerSeed = samplerSeed;
    this.pool = Executors.newFixedThreadPool(jobs);
  }

  /**
   * Runs every launch and waits for all of them.
   *
   * @throws IllegalStateException with the JVM's stderr when one fails or times out
   */
  public List<Outcome> runAll(List<Launch> launches) throws InterruptedException {
    List<Future<Outcome>> futures = new ArrayList<>();
    for (Launch launch : launches) {
      futures.add(pool.submit(() -> run(launch)));
    }
    List<Outcome> outcomes = new ArrayList<>();
    for (Future<Outcome> future : futures) {
      try {
        outcomes.add(future.get());
      } catch (ExecutionException e) {
        for (Future<Outcome> other : futures) {
          other.cancel(true);
        }
        Throwable cause = e.getCause();
        throw cause instanceof IllegalStateException ise
            ? ise
            : new IllegalStateException("a workload JVM could not be run: " + cause, cause);
      }
    }
    return outcomes;
  }

  List<String> command(Launch launch) {
    List<String> command = new ArrayList<>();
    command.add(java.toString());
    command.add("-XX:-UsePerfData");
    command.add("-Xmx256m");
    command.add("-javaagent:" + agentJar + "=" + agentArguments(launch));
    command.add("-cp");
    command.add(classPath);
    command.add(launch.workload().mainClass().getName());
    command.add(launch.bad() ? "bad" : "good");
    command.add(Long.toString(launch.seed()));
    return command;
  }

  String agentArguments(Launch launch) {
    return "service="
        + launch.service()
        + ",instance="
        + launch.instance()
        + ",version=eval"
        + ",include="
        + String.join(",", launch.workload().includes())
        + ",exclude="
        + String.join(",", launch.workload().excludes())
        + ",probes="
        + probes
        + ",sampling.rate="
        + rate(launch.rate())
        + samplingSeed(launch)
        + ",label="
        + (launch.bad() ? "failure" : "success")
        + ",shutdown.flush.timeout.ms="
        + FLUSH_TIMEOUT_MILLIS
        + ",daemon=127.0.0.1:"
        + daemonPort;
  }

  /**
   * One seed per input, so that no two JVMs draw alike: with one seed for all, the first draws of
   * every run's main thread would agree, and a method called once per run would run its probes in
   * every run or in none.
   */
  private String samplingSeed(Launch launch) {
    if (samplerSeed.isEmpty()) {
      return "";
    }
    return ",sampling.seed="
        + (samplerSeed.getAsLong() + 2 * launch.seed() + (launch.bad() ? 1 : 0));
  }

  /**
   * A private copy of the agent jar, deleted on {@link #close()}: a rebuild of the agent during the
   * evaluation must not change (or break) the JVMs still to come.
   */
  private static Path snapshot(Path agentJar) {
    try {
      Path copy = Files.createTempFile("whyslow-eval-agent", ".jar");
      return Files.copy(agentJar, copy, StandardCopyOption.REPLACE_EXISTING);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot copy the agent jar " + agentJar, e);
    }
  }

  /** {@code 1} or {@code 0.0001}: plain decimal, as the agent's configuration reads it. */
  static String rate(double rate) {
    return BigDecimal.valueOf(rate).stripTrailingZeros().toPlainString();
  }

  private Outcome run(Launch launch) throws IOException, InterruptedException {
    List<String> command = command(launch);
    Path out = Files.createTempFile("whyslow-eval", ".out");
    Path err = Files.createTempFile("whyslow-eval", ".err");
    try {
      Process process =
          new ProcessBuilder(command)
              .redirectOutput(out.toFile())
              .redirectError(err.toFile())
              .start();
      if (!process.waitFor(TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
        process.destroyForcibly();
        throw new IllegalStateException(
            "workload JVM did not finish in "
                + TIMEOUT_SECONDS
                + " s: "
                + String.join(" ", command));
      }
      String stdout = Files.readString(out, StandardCharsets.UTF_8);
      if (process.exitValue() != 0) {
        throw new IllegalStateException(
            "workload JVM exited with "
                + process.exitValue()
                + ": "
                + String.join(" ", command)
                + "\n"
                + Files.readString(err, StandardCharsets.UTF_8));
      }
      Matcher elapsed = ELAPSED.matcher(stdout);
      if (!elapsed.find()) {
        throw new IllegalStateException(
            "workload printed no elapsed_us=...: " + String.join(" ", command) + "\n" + stdout);
      }
      return new Outcome(
          launch, Long.parseLong(elapsed.group(1)), Files.readString(err, StandardCharsets.UTF_8));
    } finally {
      Files.deleteIfExists(out);
      Files.deleteIfExists(err);
    }
  }

  @Override
  public void close() {
    pool.shutdownNow();
    try {
      Files.deleteIfExists(agentJar);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot delete the agent jar copy " + agentJar, e);
    }
  }
}
