package dev.whyslow.agent.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.whyslow.agent.transport.FakeDaemon;
import dev.whyslow.protocol.Hello;
import dev.whyslow.protocol.Label;
import dev.whyslow.protocol.Run;
import dev.whyslow.protocol.RunKind;
import dev.whyslow.protocol.SetThresholds;
import dev.whyslow.protocol.Threshold;
import dev.whyslow.protocol.UnitHistogram;
import dev.whyslow.protocol.UnitStats;
import dev.whyslow.protocol.Violation;
import dev.whyslow.protocol.ViolationBatch;
import dev.whyslow.protocol.ViolationCause;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.stream.Collectors;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Units in a real service under the shaded agent with {@code -Xverify:all}, against a fake daemon:
 * HttpServer requests on a thread pool, an executor task, a wait loop and declared units become
 * typed units with histograms and labels, and a stuck request is caught by the watchdog with its
 * stack.
 */
class UnitsIT {
  private static final String SERVICE = "sample.workload.UnitService";
  private static final String ROUTER = "sample.workload.UnitService$Router.handle";
  private static final long THRESHOLD_NANOS = 2_000_000_000L; // far above a fast request under load
  private static final Duration WAIT = Duration.ofSeconds(60);

  @TempDir Path dir;

  static List<Jdks.Jdk> jdks() {
    return Jdks.all();
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("jdks")
  void requestsTasksLoopsAndDeclaredMethodsBecomeTypedUnits(Jdks.Jdk jdk) throws Exception {
    try (FakeDaemon daemon = FakeDaemon.start()) {
      String args =
          "service=it,include=sample.workload,sampling.rate=1,log=info,units.runs=all,"
              + "units.watchdog.interval=100ms,units.stats.interval=300ms,batch.max.delay.ms=20,"
              + "units.declare=sample.workload.UnitService#declared,"
              + "shutdown.flush.timeout.ms=5000,daemon=127.0.0.1:"
              + daemon.port();
      CompletableFuture<ChildJvm.Result> child =
          CompletableFuture.supplyAsync(
              () -> {
                try {
                  return ChildJvm.run(
                      jdk,
                      List.of("-Xverify:all", ChildJvm.javaagent(args)),
                      SERVICE,
                      List.of(dir.toString()),
                      dir);
                } catch (Exception e) {
                  throw new IllegalStateException(e);
                }
              });

      await("the agent's hello", () -> !daemon.received(Hello.class).isEmpty(), child);
      daemon
          .connections
          .get(0)
          .send(new SetThresholds(List.of(new Threshold(ROUTER, THRESHOLD_NANOS, 500))));
      Files.createFile(dir.resolve("go"));
      await("a watchdog violation", () -> !violations(daemon).isEmpty(), child);
      Files.createFile(dir.resolve("release"));
      ChildJvm.Result r = child.get(ChildJvm.TIMEOUT.toSeconds(), TimeUnit.SECONDS);

      assertThat(r.exitCode()).as(r.stderr()).isZero();
      assertThat(r.stdout())
          .contains("http ", "job ", "consumed 30", "annotated 6 declared 12 api 1");
      assertThat(r.agentLines()).anySatisfy(l -> assertThat(l).contains("agent errors 0"));
      assertThat(r.stderr()).doesNotContain("internal error", "could not instrument");

      Violation v = violations(daemon).get(0);
      assertThat(v.cause()).isEqualTo(ViolationCause.WATCHDOG);
      assertThat(v.unitType()).isEqualTo(ROUTER);
      assertThat(v.thresholdNanos()).isEqualTo(THRESHOLD_NANOS);
      assertThat(v.elapsedNanos()).isGreaterThan(THRESHOLD_NANOS);
      assertThat(v.thread()).startsWith("pool-");
      assertThat(v.stack())
          .anySatisfy(f -> assertThat(f).startsWith(SERVICE + ".slowPath(UnitService.java:"));
      assertThat(violations(daemon)).hasSize(1);
      // The job's unit ends right after LateClass is loaded; its sites must still arrive first.
      assertThat(daemon.runsAheadOfTheirSites()).isEmpty();

      List<Run> units = daemon.runs().stream().filter(run -> run.kind() == RunKind.UNIT).toList();
      List<Run> requests = units.stream().filter(u -> u.unitType().equals(ROUTER)).toList();
      assertThat(requests).hasSize(21);
      Run slow = requests.stream().filter(u -> u.sequence() == v.runSequence()).findFirst().get();
      assertThat(slow.label()).isEqualTo(Label.FAILURE);
      assertThat(slow.durationNanos()).isGreaterThan(THRESHOLD_NANOS);
      assertThat(requests).filteredOn(u -> u.label() == Label.SUCCESS).isNotEmpty();
      assertThat(requests).allSatisfy(u -> assertThat(u.sites()).isNotEmpty());

      Map<String, Long> byType =
          units.stream().collect(Collectors.groupingBy(Run::unitType, Collectors.counting()));
      assertThat(byType)
          .containsEntry("java.util.concurrent.FutureTask.run", 1L)
          .containsEntry(SERVICE + ".consume", 6L)
          .containsEntry(SERVICE + ".annotated", 1L)
          .containsEntry(SERVICE + ".declared", 1L)
          .containsEntry(SERVICE + ".api", 1L);

      Map<String, long[]> histograms = histograms(daemon);
      assertThat(histograms.get(ROUTER)).containsExactly(21, 1);
      assertThat(histograms.get(SERVICE + ".consume")).containsExactly(6, 0);
    }
  }

  private static List<Violation> violations(FakeDaemon daemon) {
    return daemon.received(ViolationBatch.class).stream()
        .flatMap(b -> b.violations().stream())
        .toList();
  }

  /** Per type: units counted and violations, summed over every interval received. */
  private static Map<String, long[]> histograms(FakeDaemon daemon) {
    return daemon.received(UnitStats.class).stream()
        .flatMap(s -> s.histograms().stream())
        .collect(
            Collectors.toMap(
                UnitHistogram::unitType,
                h -> new long[] {h.count(), h.violations()},
                (a, b) -> new long[] {a[0] + b[0], a[1] + b[1]}));
  }

  private static void await(
      String what, BooleanSupplier condition, CompletableFuture<ChildJvm.Result> child)
      throws Exception {
    long deadline = System.nanoTime() + WAIT.toNanos();
    while (!condition.getAsBoolean()) {
      if (child.isDone()) {
        ChildJvm.Result r = child.get();
        throw new AssertionError(
            "the service exited before " + what + ": " + r.stdout() + "\n" + r.stderr());
      }
      if (System.nanoTime() > deadline) {
        throw new AssertionError("no " + what + " within " + WAIT);
      }
      Thread.onSpinWait();
      TimeUnit.MILLISECONDS.sleep(10);
    }
  }
}
