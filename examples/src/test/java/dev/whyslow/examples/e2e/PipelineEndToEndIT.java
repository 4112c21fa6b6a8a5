package dev.whyslow.examples.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;
import static org.assertj.core.api.Assertions.withinPercentage;

import dev.whyslow.daemon.RunningDaemon;
import dev.whyslow.daemon.Whyslowd;
import dev.whyslow.daemon.config.DaemonConfig;
import dev.whyslow.protocol.Label;
import dev.whyslow.protocol.RunKind;
import dev.whyslow.protocol.Site;
import dev.whyslow.protocol.SiteCounts;
import dev.whyslow.protocol.SiteKind;
import dev.whyslow.storage.RunQuery;
import dev.whyslow.storage.StoredRun;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The whole pipeline: a real whyslowd on a fresh RocksDB directory, a workload JVM under the shaded
 * agent with {@code -Xverify:all}, and the stored predicate counts compared with what {@link
 * CountingWorkload}'s source says they must be.
 */
@Timeout(300)
class PipelineEndToEndIT {
  static final String WORKLOAD = CountingWorkload.class.getName();

  @TempDir Path dataDir;
  RunningDaemon daemon;

  @BeforeEach
  void startDaemon() {
    daemon =
        Whyslowd.start(
            DaemonConfig.defaults()
                .with("data.dir", dataDir.toString())
                .with("agent.bind", "127.0.0.1:0")
                .with("http.bind", "127.0.0.1:0"));
  }

  @AfterEach
  void stopDaemon() {
    if (daemon != null) {
      daemon.close();
    }
  }

  String agentArgs(String service, String rate, Label label) {
    return "service="
        + service
        + ",version=1.0,include=dev.whyslow.examples.e2e"
        + ",sampling.rate="
        + rate
        + ",label="
        + label.spelling()
        + ",daemon=127.0.0.1:"
        + daemon.agentPort();
  }

  static List<Path> javaHomes() throws IOException {
    return AgentJvm.javaHomes();
  }

  @ParameterizedTest(name = "on {0}")
  @MethodSource("javaHomes")
  void storedCountsAtRateOneEqualTheHandComputation(Path javaHome) throws Exception {
    String service = "e2e-exact-" + Math.abs(javaHome.hashCode());
    AgentJvm.Result result =
        AgentJvm.run(javaHome, agentArgs(service, "1", Label.FAILURE), WORKLOAD);
    assertThat(result.exitCode()).as(result.stderr()).isZero();
    assertThat(result.stdout()).isEqualTo("total=1661\n");

    StoredRun run = awaitSingleRun(service);
    assertThat(run.run().kind()).isEqualTo(RunKind.PROCESS);
    assertThat(run.label()).isEqualTo(Label.FAILURE);
    assertThat(run.run().samplingRate()).isEqualTo(1.0);
    assertThat(run.origin().serviceVersion()).isEqualTo("1.0");

    Map<String, SiteCounts> counts = countsBySite(service, run);
    Lines lines = Lines.ofWorkloadSource();
    // main: `args.length > 0 ? ... : 1` jumps to the else branch once (no arguments).
    assertThat(counts.get(key("main", lines.of("int repeats ="), SiteKind.BRANCH)))
        .isEqualTo(expected(1, 1, 0));
    // main: `r < repeats` with repeats = 1 is evaluated twice; it leaves the loop once.
    assertThat(counts.get(key("main", lines.of("int r = 0"), SiteKind.LOOP_BRANCH)))
        .isEqualTo(expected(2, 1, 1));
    // sumOfClassified: `i < 100` is evaluated 101 times and leaves the loop once.
    assertThat(counts.get(key("sumOfClassified", lines.of("int i = 0"), SiteKind.LOOP_BRANCH)))
        .isEqualTo(expected(101, 1, 100));
    // `i % 3 == 0` compiles to a jump over the body when the remainder is not zero: 66 times.
    assertThat(counts.get(key("sumOfClassified", lines.of("i % 3 == 0"), SiteKind.BRANCH)))
        .isEqualTo(expected(100, 66, 34));
    // returns 1661 once: > 0, >= 0, != 0.
    assertThat(counts.get(key("sumOfClassified", lines.of("return sum"), SiteKind.RETURN_NUMERIC)))
        .isEqualTo(expected(1, 0, 0, 1, 1, 0, 1));
    // classify(x) for x = 0, 3, ..., 99: `x < 10` jumps past the early return 30 times.
    assertThat(counts.get(key("classify", lines.of("x < 10"), SiteKind.BRANCH)))
        .isEqualTo(expected(34, 30, 4));
    // ... returns -1 four times and x (12 ... 99, all positive) thirty times.
    assertThat(counts.get(key("classify", lines.of("return -1"), SiteKind.RETURN_NUMERIC)))
        .isEqualTo(expected(4, 4, 4, 0, 0, 0, 4));
    assertThat(counts.get(key("classify", lines.of("return x"), SiteKind.RETURN_NUMERIC)))
        .isEqualTo(expected(30, 0, 0, 30, 30, 0, 30));
    assertThat(counts).as("no other site was observed").hasSize(8);
  }

  @Test
  void storedCountsAtRateOneInAHundredMatchStatistically() throws Exception {
    int repeats = 2000;
    AgentJvm.Result result =
        AgentJvm.run(agentArgs("e2e-sampled", "0.01", Label.SUCCESS), WORKLOAD, "" + repeats);
    assertThat(result.exitCode()).as(result.stderr()).isZero();
    assertThat(result.stdout()).isEqualTo("total=" + 1661L * repeats + "\n");

    StoredRun run = awaitSingleRun("e2e-sampled");
    assertThat(run.run().samplingRate()).isEqualTo(0.01);
    Map<String, SiteCounts> counts = countsBySite("e2e-sampled", run);
    Lines lines = Lines.ofWorkloadSource();

    // Every evaluation is recorded with probability 0.01 (a geometric countdown is a Bernoulli
    // process), so the observed count of a site evaluated n times is Binomial(n, 0.01).
    SiteCounts loop =
        counts.get(key("sumOfClassified", lines.of("int i = 0"), SiteKind.LOOP_BRANCH));
    assertBinomial(loop.observed(), 101L * repeats, 0.01);
    // Which outcome was recorded is independent of sampling: not taken 100 times in 101.
    assertBinomial(loop.trueCount(SiteKind.NOT_TAKEN), loop.observed(), 100.0 / 101);

    SiteCounts mod = counts.get(key("sumOfClassified", lines.of("i % 3 == 0"), SiteKind.BRANCH));
    assertBinomial(mod.observed(), 100L * repeats, 0.01);
    assertBinomial(mod.trueCount(SiteKind.TAKEN), mod.observed(), 0.66);

    SiteCounts negative =
        counts.get(key("classify", lines.of("return -1"), SiteKind.RETURN_NUMERIC));
    assertBinomial(negative.observed(), 4L * repeats, 0.01);
    assertThat(negative.trueCount(SiteKind.LT)).isEqualTo(negative.observed());
    assertThat(negative.trueCount(SiteKind.GT)).isZero();
  }

  /**
   * At 1/1000 the agent samples invocations (one in 20 runs its probes, at 1/50): the samples come
   * in whole invocations, so counts are not binomial, but each evaluation is still recorded with
   * probability 1/1000, and within a sampled invocation outcomes are recorded as often as they
   * occur.
   */
  @Test
  void inSampledInvocationsEachEvaluationIsStillRecordedAtTheRate() throws Exception {
    int repeats = 400_000;
    AgentJvm.Result result =
        AgentJvm.run(
            agentArgs("e2e-invocations", "0.001", Label.SUCCESS) + ",log=info",
            WORKLOAD,
            "" + repeats);
    assertThat(result.exitCode()).as(result.stderr()).isZero();
    assertThat(result.stdout()).isEqualTo("total=" + 1661L * repeats + "\n");
    assertThat(result.stderr()).contains("sampling.invocations=0.05");

    StoredRun run = awaitSingleRun("e2e-invocations");
    assertThat(run.run().samplingRate()).isEqualTo(0.001);
    Map<String, SiteCounts> counts = countsBySite("e2e-invocations", run);
    Lines lines = Lines.ofWorkloadSource();
    SiteCounts loop =
        counts.get(key("sumOfClassified", lines.of("int i = 0"), SiteKind.LOOP_BRANCH));
    SiteCounts mod = counts.get(key("sumOfClassified", lines.of("i % 3 == 0"), SiteKind.BRANCH));
    SiteCounts negative =
        counts.get(key("classify", lines.of("return -1"), SiteKind.RETURN_NUMERIC));
    // 400,000 calls of sumOfClassified, 20,000 of them sampled: the totals land near their means,
    // 40,400 evaluations of the loop condition recorded, 1,600 negative returns.
    assertThat((double) loop.observed()).isCloseTo(101.0 * repeats * 0.001, withinPercentage(30));
    assertThat((double) negative.observed()).isCloseTo(4.0 * repeats * 0.001, withinPercentage(30));
    // classify's own invocations are sampled as often as those of the method that calls it.
    assertThat((double) negative.observed() / mod.observed()).isCloseTo(0.04, withinPercentage(25));
    assertBinomial(loop.trueCount(SiteKind.NOT_TAKEN), loop.observed(), 100.0 / 101);
    assertBinomial(mod.trueCount(SiteKind.TAKEN), mod.observed(), 0.66);
  }

  /**
   * Within five standard deviations of the binomial mean: fails by chance about once in 3.5
   * million.
   */
  static void assertBinomial(long actual, long n, double p) {
    double mean = n * p;
    double sd = Math.sqrt(n * p * (1 - p));
    assertThat((double) actual)
        .as("count %d for Binomial(n=%d, p=%.4f), mean %.1f, sd %.1f", actual, n, p, mean, sd)
        .isCloseTo(mean, within(5 * sd + 1));
  }

  StoredRun awaitSingleRun(String service) throws InterruptedException {
    RunQuery query = RunQuery.forService(service);
    await(Duration.ofSeconds(30), () -> !daemon.store().runs(query).isEmpty());
    List<StoredRun> runs = daemon.store().runs(query);
    assertThat(runs).hasSize(1);
    return runs.get(0);
  }

  Map<String, SiteCounts> countsBySite(String service, StoredRun run) {
    Map<Long, Site> sites = new HashMap<>();
    for (Site site : daemon.store().sites(service)) {
      sites.put(site.key(), site);
    }
    Map<String, SiteCounts> byLocation = new HashMap<>();
    for (SiteCounts counts : run.run().sites()) {
      Site site = sites.get(counts.siteKey());
      assertThat(site).as("site %x of the run is in the site table", counts.siteKey()).isNotNull();
      assertThat(site.className()).isEqualTo(WORKLOAD);
      // Keyed by location, so the key itself is zeroed to compare with hand-written expectations.
      SiteCounts previous =
          byLocation.put(
              key(site.methodName(), site.line(), site.kind()),
              new SiteCounts(0, counts.observed(), counts.trueCounts()));
      assertThat(previous).as("one site per method, line and kind: %s", site).isNull();
    }
    return byLocation;
  }

  static String key(String method, int line, SiteKind kind) {
    return method + ":" + line + ":" + kind;
  }

  /** Observed count, then the true count of each predicate in {@link SiteKind} order. */
  static SiteCounts expected(long observed, long... trueCounts) {
    return new SiteCounts(0, observed, trueCounts);
  }

  static void await(Duration timeout, BooleanSupplier condition) throws InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError("condition not met within " + timeout);
      }
      Thread.sleep(20);
    }
  }

  /** Line numbers of statements in CountingWorkload's source, so the expectations survive edits. */
  record Lines(List<String> source) {
    static Lines ofWorkloadSource() throws IOException {
      Path file = Path.of("src/main/java/dev/whyslow/examples/e2e/CountingWorkload.java");
      return new Lines(Files.readAllLines(file, StandardCharsets.UTF_8));
    }

    int of(String text) {
      int found = -1;
      for (int i = 0; i < source.size(); i++) {
        if (source.get(i).contains(text) && !source.get(i).trim().startsWith("*")) {
          assertThat(found).as("'%s' appears once in the workload's code", text).isEqualTo(-1);
          found = i + 1;
        }
      }
      assertThat(found).as("'%s' is in the workload's code", text).isPositive();
      return found;
    }
  }
}
