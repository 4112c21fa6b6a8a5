package dev.whyslow.agent.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.whyslow.agent.transport.FakeDaemon;
import dev.whyslow.protocol.Run;
import dev.whyslow.protocol.RunKind;
import dev.whyslow.protocol.SetThresholds;
import dev.whyslow.protocol.Threshold;
import dev.whyslow.protocol.UnitTypeBatch;
import dev.whyslow.protocol.UnitTypeInfo;
import dev.whyslow.protocol.Violation;
import dev.whyslow.protocol.ViolationBatch;
import dev.whyslow.protocol.ViolationCause;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Unit types learned in a real service: four kinds of requests through one router are traced,
 * trained on the agent's thread into types named by their context, guards infer each unit's type, a
 * slow report is caught at a guard, and the audit finds the inference agreeing with the trace.
 */
class UnitTrainingIT {
  private static final String SERVICE = "sample.workload.TrainedService";
  private static final String ROUTER = SERVICE + "$Router.handle";
  private static final Pattern AUDIT = Pattern.compile("audit ([0-9]+)/([0-9]+)");

  @TempDir Path dir;

  /**
   * With {@code units.depth=auto}: with every unit audited, every unit is traced and counts every
   * frame; with none, the units after training count only the guards' frames (the kinds differ by
   * site alone, so the guards' classes are retransformed), and the slow report must still be caught
   * at its guard.
   */
  @ParameterizedTest(name = "units.audit.share={0}")
  @ValueSource(strings = {"1", "0"})
  void requestKindsBehindOneRouterBecomeTypesAndASlowOneIsCaughtAtAGuard(String auditShare)
      throws Exception {
    boolean audited = auditShare.equals("1");
    try (FakeDaemon daemon = FakeDaemon.start()) {
      String args =
          "service=it,include=sample.workload,log=info,units.training.units=60,"
              + "units.training.share=1,units.audit.share="
              + auditShare
              + ",units.depth=auto,units.watchdog.interval=1h,"
              + "units.stats.interval=300ms,shutdown.flush.timeout.ms=5000,daemon=127.0.0.1:"
              + daemon.port();
      CompletableFuture<ChildJvm.Result> child =
          CompletableFuture.supplyAsync(
              () -> {
                try {
                  return ChildJvm.run(
                      Jdks.all().get(0),
                      List.of("-Xverify:all", ChildJvm.javaagent(args)),
                      SERVICE,
                      List.of(dir.toString()),
                      dir);
                } catch (Exception e) {
                  throw new IllegalStateException(e);
                }
              });
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
      while (daemon.received(UnitTypeBatch.class).isEmpty() && !child.isDone()) {
        assertThat(System.nanoTime()).as("unit types within 60 s").isLessThan(deadline);
        TimeUnit.MILLISECONDS.sleep(10);
      }
      List<UnitTypeInfo> types = daemon.received(UnitTypeBatch.class).get(0).types();
      assertThat(types).hasSizeGreaterThanOrEqualTo(2);
      assertThat(types).allSatisfy(t -> assertThat(t.entryPoint()).isEqualTo(ROUTER));
      String report =
          types.stream()
              .filter(t -> t.contexts().stream().anyMatch(c -> c.contains("Reports.report")))
              .findFirst()
              .orElseThrow()
              .name();
      daemon
          .connections
          .get(0)
          .send(
              new SetThresholds(
                  types.stream()
                      .map(
                          t ->
                              new Threshold(
                                  t.name(),
                                  t.name().equals(report) ? 50_000_000L : 10_000_000_000L,
                                  100))
                      .toList()));
      Files.createFile(dir.resolve("trained"));
      ChildJvm.Result r = child.get(ChildJvm.TIMEOUT.toSeconds(), TimeUnit.SECONDS);

      assertThat(r.exitCode()).as(r.stderr()).isZero();
      assertThat(r.agentLines()).anySatisfy(l -> assertThat(l).contains("trained "));
      assertThat(r.agentLines()).anySatisfy(l -> assertThat(l).contains("agent errors 0"));

      List<Violation> violations =
          daemon.received(ViolationBatch.class).stream()
              .flatMap(b -> b.violations().stream())
              .toList();
      assertThat(violations)
          .singleElement()
          .satisfies(
              v -> {
                assertThat(v.unitType()).isEqualTo(report);
                assertThat(v.cause()).as("types %s", types).isEqualTo(ViolationCause.GUARD);
                assertThat(v.stack()).anySatisfy(f -> assertThat(f).contains("Reports.report("));
              });

      Set<String> unitTypes =
          daemon.runs().stream()
              .filter(run -> run.kind() == RunKind.UNIT)
              .map(Run::unitType)
              .collect(Collectors.toSet());
      assertThat(unitTypes).contains(report);

      if (!audited) {
        assertThat(r.agentLines())
            .anySatisfy(l -> assertThat(l).contains("units count depth only in the"));
        return;
      }
      String exit =
          r.agentLines().stream().filter(l -> l.contains("exit:")).findFirst().orElseThrow();
      Matcher audit = AUDIT.matcher(exit);
      assertThat(audit.find()).as(exit).isTrue();
      long agreed = Long.parseLong(audit.group(1));
      long total = Long.parseLong(audit.group(2));
      assertThat(total).isPositive();
      assertThat((double) agreed / total).as(exit).isGreaterThanOrEqualTo(0.95);
    }
  }
}
