package dev.whyslow.agent.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.whyslow.agent.transport.FakeDaemon;
import dev.whyslow.protocol.Run;
import dev.whyslow.protocol.RunKind;
import dev.whyslow.protocol.Site;
import dev.whyslow.protocol.SiteBatch;
import dev.whyslow.protocol.SiteCounts;
import dev.whyslow.protocol.UnitTypeBatch;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Units chosen whole ({@code units.choice=unit}) in a real service: after training, a unit is
 * either sampled from its first frame down, through a static call, an interface call and a private
 * method, or not at all, and the guards still type every unit.
 */
class WholeUnitsIT {
  private static final String SERVICE = "sample.workload.WholeUnitService";

  @TempDir Path dir;

  static List<Jdks.Jdk> jdks() {
    return Jdks.all();
  }

  /**
   * A share of 0.2 and a rate of 0.02: a chosen unit's copies record one evaluation in ten. An
   * alpha unit makes some 150 evaluations, so with a choice per invocation nearly every alpha unit
   * would hold a sample or two; chosen whole, about one in five holds many.
   */
  @ParameterizedTest(name = "{0}")
  @MethodSource("jdks")
  void aUnitIsSampledWholeOrNotAtAll(Jdks.Jdk jdk) throws Exception {
    try (FakeDaemon daemon = FakeDaemon.start()) {
      String args =
          "service=it,include=sample.workload,log=info,units.training.units=60,"
              + "units.training.share=1,units.depth=auto,units.choice=unit,units.runs=all,"
              + "sampling.rate=0.02,sampling.invocation.share=0.2,"
              + "sampling.invocation.share.steady=0.2,units.watchdog.interval=1h,"
              + "units.stats.interval=300ms,shutdown.flush.timeout.ms=5000,daemon=127.0.0.1:"
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
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
      while (daemon.received(UnitTypeBatch.class).isEmpty() && !child.isDone()) {
        assertThat(System.nanoTime()).as("unit types within 60 s").isLessThan(deadline);
        TimeUnit.MILLISECONDS.sleep(10);
      }
      Files.createFile(dir.resolve("trained"));
      ChildJvm.Result r = child.get(ChildJvm.TIMEOUT.toSeconds(), TimeUnit.SECONDS);

      assertThat(r.exitCode()).as(r.stderr()).isZero();
      assertThat(r.agentLines()).anySatisfy(l -> assertThat(l).contains("agent errors 0"));

      Map<Long, Site> sites = new HashMap<>();
      for (SiteBatch b : daemon.received(SiteBatch.class)) {
        b.sites().forEach(s -> sites.put(s.key(), s));
      }
      long round2 = Long.parseLong(Files.readString(dir.resolve("round2")).trim());
      List<Run> units =
          daemon.runs().stream()
              .filter(run -> run.kind() == RunKind.UNIT && run.startEpochMillis() >= round2)
              .toList();
      assertThat(units).hasSizeGreaterThanOrEqualTo(300);
      Set<String> types = units.stream().map(Run::unitType).collect(Collectors.toSet());
      assertThat(types).as("the guards still type the units").hasSizeGreaterThanOrEqualTo(2);

      List<Run> sampled = units.stream().filter(run -> samples(run) > 0).toList();
      assertThat(sampled).as("units chosen").isNotEmpty();
      assertThat(sampled.size())
          .as("units chosen whole, about one in five: not nearly every alpha unit")
          .isLessThan(units.size() / 3);
      double perSampledUnit = sampled.stream().mapToLong(WholeUnitsIT::samples).average().orElse(0);
      assertThat(perSampledUnit).as("samples in each sampled unit").isGreaterThanOrEqualTo(5);
      long deepest =
          units.stream()
              .mapToLong(run -> Math.max(0, samplesIn(run, sites, "Heavy", "spread")))
              .sum();
      long throughInterface =
          units.stream()
              .mapToLong(run -> Math.max(0, samplesIn(run, sites, "Light", "weigh")))
              .sum();
      assertThat(deepest).as("a private method below an interface call").isPositive();
      assertThat(throughInterface).as("an interface call's other class").isPositive();
      assertThat(r.agentLines()).anySatisfy(l -> assertThat(l).contains("units are chosen whole"));
    }
  }

  private static long samples(Run run) {
    return run.sites().stream().mapToLong(SiteCounts::observed).sum();
  }

  /** Samples of {@code run} in {@code method} of the nested class {@code type}; -1 for none. */
  private static long samplesIn(Run run, Map<Long, Site> sites, String type, String method) {
    long n = -1;
    for (SiteCounts c : run.sites()) {
      Site s = sites.get(c.siteKey());
      if (s != null && s.className().endsWith("$" + type) && s.methodName().equals(method)) {
        n = Math.max(n, 0) + c.observed();
      }
    }
    return n;
  }
}
