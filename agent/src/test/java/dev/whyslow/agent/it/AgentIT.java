package dev.whyslow.agent.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.whyslow.agent.core.RunDump;
import dev.whyslow.protocol.SiteKind;
import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The shaded agent in a real JVM with {@code -Xverify:all}: the application behaves exactly as
 * without it, probes count exactly, and neither a missing daemon nor bad configuration harms it.
 */
class AgentIT {
  private static final String WORKLOAD = "sample.workload.Workload";
  private static final String COUNTING = "sample.workload.Counting";
  private static final String MANY_EVALUATIONS = "sample.workload.ManyEvaluations";

  @TempDir Path dir;

  static List<Jdks.Jdk> jdks() {
    return Jdks.all();
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("jdks")
  void applicationOutputAndExceptionsAreUnchangedWithJavaUtilInScope(Jdks.Jdk jdk)
      throws Exception {
    ChildJvm.Result plain =
        ChildJvm.run(jdk, List.of("-Xverify:all"), WORKLOAD, List.of("throw"), dir);
    ChildJvm.Result agent =
        ChildJvm.run(
            jdk,
            List.of(
                "-Xverify:all",
                ChildJvm.javaagent(
                    "service=it,include=sample.workload,java.util,sampling.rate=1,log=info,"
                        + "shutdown.flush.timeout.ms=0,daemon=127.0.0.1:"
                        + closedPort())),
            WORKLOAD,
            List.of("throw"),
            dir);

    assertThat(plain.exitCode()).isEqualTo(1);
    assertThat(plain.stdout()).contains("threads total=").doesNotContain("done");
    assertThat(agent.stdout()).isEqualTo(plain.stdout());
    assertThat(agent.applicationStderr()).isEqualTo(plain.applicationStderr());
    assertThat(agent.applicationStderr())
        .startsWith(
            "Exception in thread \"main\" java.lang.IllegalStateException: workload ends with an"
                + " uncaught exception");
    assertThat(agent.exitCode()).isEqualTo(plain.exitCode());
    assertThat(agent.stderr()).doesNotContain("internal error", "could not instrument");
    assertThat(agent.agentLines())
        .anySatisfy(l -> assertThat(l).contains("agent errors 0"))
        .anySatisfy(
            l -> assertThat(l).containsPattern("exit: [1-9][0-9]{2,} classes instrumented"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("jdks")
  void dumpHoldsExactCountsAtRateOne(Jdks.Jdk jdk) throws Exception {
    Path dump = dir.resolve("counting.dump");
    ChildJvm.Result r =
        ChildJvm.run(
            jdk,
            List.of(
                "-Xverify:all",
                ChildJvm.javaagent(
                    "service=it,include=sample.workload.Counting,sampling.rate=1,label=failure,"
                        + "shutdown.flush.timeout.ms=0,dump="
                        + dump
                        + ",daemon=127.0.0.1:"
                        + closedPort())),
            COUNTING,
            List.of(),
            dir);
    assertThat(r.exitCode()).as(r.stderr()).isZero();
    assertThat(r.stdout()).isEqualTo("sum=10\n");

    RunDump.Contents contents = RunDump.read(dump);
    assertThat(contents.run())
        .containsEntry("kind", "process")
        .containsEntry("label", "failure")
        .containsEntry("samplingRate", "1.0")
        .containsEntry("observedSites", "3");
    List<RunDump.DumpedSite> main = contents.sitesOf(COUNTING, "main");
    assertThat(main).hasSize(2);
    assertThat(main.get(0).kind()).isEqualTo(SiteKind.LOOP_BRANCH);
    assertThat(main.get(0).detail()).isEqualTo("if_icmpge");
    assertThat(main.get(0).observed()).isEqualTo(11);
    assertThat(main.get(0).trueCounts()).containsExactly(1, 10);
    assertThat(main.get(1).kind()).isEqualTo(SiteKind.BRANCH);
    assertThat(main.get(1).loopId()).isEqualTo(main.get(0).loopId());
    assertThat(main.get(1).observed()).isEqualTo(10);
    assertThat(main.get(1).trueCounts()).containsExactly(5, 5);
    List<RunDump.DumpedSite> half = contents.sitesOf(COUNTING, "half");
    assertThat(half).hasSize(1);
    assertThat(half.get(0).kind()).isEqualTo(SiteKind.RETURN_NUMERIC);
    assertThat(half.get(0).observed()).isEqualTo(5);
    assertThat(half.get(0).trueCounts()).containsExactly(0, 1, 4, 5, 1, 4);
    assertThat(half.get(0).sourceFile()).isEqualTo("Counting.java");
    assertThat(half.get(0).line()).isPositive();
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("jdks")
  void aSamplingSeedRecordsTheSameEvaluationsInEveryRun(Jdks.Jdk jdk) throws Exception {
    // 1/1000 samples invocations too: one call of setBits in 20 runs its probes, at 1/50.
    Map<String, List<Long>> first = sampledCounts(jdk, 11, "first");
    Map<String, List<Long>> again = sampledCounts(jdk, 11, "again");
    Map<String, List<Long>> other = sampledCounts(jdk, 12, "other");

    // The loop branch's two predicates: some 2 million evaluations at 1/1000.
    List<Long> loop = first.values().iterator().next();
    assertThat(loop.get(0) + loop.get(1)).isGreaterThan(1_000);
    assertThat(again).isEqualTo(first);
    assertThat(other).isNotEqualTo(first);
  }

  private Map<String, List<Long>> sampledCounts(Jdks.Jdk jdk, long seed, String name)
      throws Exception {
    Path dump = dir.resolve(name + ".dump");
    ChildJvm.Result r =
        ChildJvm.run(
            jdk,
            List.of(
                ChildJvm.javaagent(
                    "service=it,include=sample.workload.ManyEvaluations,sampling.rate=1/1000,"
                        + "sampling.seed="
                        + seed
                        + ",shutdown.flush.timeout.ms=0,dump="
                        + dump
                        + ",daemon=127.0.0.1:"
                        + closedPort())),
            MANY_EVALUATIONS,
            List.of(),
            dir);
    assertThat(r.exitCode()).as(r.stderr()).isZero();
    assertThat(r.stdout()).isEqualTo("bits=" + expectedBits() + "\n");
    Map<String, List<Long>> counts = new LinkedHashMap<>();
    for (RunDump.DumpedSite site : RunDump.read(dump).sitesOf(MANY_EVALUATIONS, "setBits")) {
      counts.put(site.key(), Arrays.stream(site.trueCounts()).boxed().toList());
    }
    assertThat(counts).hasSize(2);
    return counts;
  }

  @Test
  void withoutADaemonTheApplicationExitsPromptlyAndTheAgentSaysWhatItDropped() throws Exception {
    ChildJvm.Result r =
        ChildJvm.run(
            Jdks.all().get(0),
            List.of(
                ChildJvm.javaagent(
                    "service=it,include=sample.workload,daemon=127.0.0.1:" + closedPort())),
            COUNTING,
            List.of(),
            dir);
    assertThat(r.exitCode()).isZero();
    assertThat(r.stdout()).isEqualTo("sum=10\n");
    assertThat(r.agentLines()).anySatisfy(l -> assertThat(l).containsPattern("dropped 1 run"));
    // The default flush timeout is 2 s; JVM start and exit add a few more on a busy machine.
    assertThat(r.elapsed()).isLessThan(Duration.ofSeconds(30));
  }

  @Test
  void badConfigurationIsReportedAndTheApplicationStillRuns() throws Exception {
    ChildJvm.Result r =
        ChildJvm.run(
            Jdks.all().get(0),
            List.of(
                ChildJvm.javaagent(
                    "service=it,include=sample.workload,sampling.rate=2,label=maybe,daemon=nohost,"
                        + "shutdown.flush.timeout.ms=0,no.such.key=1")),
            COUNTING,
            List.of(),
            dir);
    assertThat(r.exitCode()).isZero();
    assertThat(r.stdout()).isEqualTo("sum=10\n");
    assertThat(r.agentLines())
        .anySatisfy(l -> assertThat(l).contains("sampling.rate=2 (agent arguments)"))
        .anySatisfy(l -> assertThat(l).contains("label=maybe (agent arguments)"))
        .anySatisfy(l -> assertThat(l).contains("daemon=nohost (agent arguments)"))
        .anySatisfy(l -> assertThat(l).contains("unknown key 'no.such.key'"));
  }

  @Test
  void enabledFalseInstallsNothing() throws Exception {
    Path dump = dir.resolve("disabled.dump");
    ChildJvm.Result r =
        ChildJvm.run(
            Jdks.all().get(0),
            List.of(
                ChildJvm.javaagent(
                    "enabled=false,service=it,include=sample.workload,sampling.rate=1,dump="
                        + dump)),
            COUNTING,
            List.of(),
            dir);
    assertThat(r.exitCode()).isZero();
    assertThat(r.stdout()).isEqualTo("sum=10\n");
    assertThat(r.stderr()).isEmpty();
    assertThat(dump).doesNotExist();
  }

  @Test
  void theAgentWorksThroughJavaToolOptions() throws Exception {
    Path dump = dir.resolve("jto.dump");
    String options =
        ChildJvm.javaagent(
            "service=it,include=sample.workload.Counting,sampling.rate=1,"
                + "shutdown.flush.timeout.ms=0,dump="
                + dump
                + ",daemon=127.0.0.1:"
                + closedPort());
    ChildJvm.Result r =
        ChildJvm.run(
            Jdks.all().get(0),
            List.of(),
            COUNTING,
            List.of(),
            dir,
            Map.of("JAVA_TOOL_OPTIONS", options));
    assertThat(r.exitCode()).as(r.stderr()).isZero();
    assertThat(r.stdout()).isEqualTo("sum=10\n");
    assertThat(RunDump.read(dump).sitesOf(COUNTING, "half").get(0).observed()).isEqualTo(5);
  }

  /**
   * {@code -agentlib:instrument=<jar>=<args>} attaches the same agent without the module option
   * that {@code -javaagent} adds, so the JVM maps its module graph from the CDS archive as it does
   * without an agent; probes still count exactly. The archive is checked without {@code
   * -Xverify:all}, with which the JVM maps no archive at all.
   */
  @ParameterizedTest(name = "{0}")
  @MethodSource("jdks")
  void attachedAsTheInstrumentLibraryTheAgentCountsAndTheJvmKeepsItsArchivedModuleGraph(
      Jdks.Jdk jdk) throws Exception {
    Path dump = dir.resolve("agentlib.dump");
    String agent =
        ChildJvm.agentlib(
            "service=it,include=sample.workload.Counting,sampling.rate=1,"
                + "shutdown.flush.timeout.ms=0,dump="
                + dump
                + ",daemon=127.0.0.1:"
                + closedPort());
    ChildJvm.Result verified =
        ChildJvm.run(jdk, List.of("-Xverify:all", agent), COUNTING, List.of(), dir);
    assertThat(verified.exitCode()).as(verified.stderr()).isZero();
    assertThat(verified.stdout()).isEqualTo("sum=10\n");
    assertThat(RunDump.read(dump).sitesOf(COUNTING, "half").get(0).observed()).isEqualTo(5);

    String cdsLog = "-Xlog:cds=info:stderr";
    ChildJvm.Result plain = ChildJvm.run(jdk, List.of(cdsLog), COUNTING, List.of(), dir);
    ChildJvm.Result attached = ChildJvm.run(jdk, List.of(cdsLog, agent), COUNTING, List.of(), dir);
    assertThat(attached.exitCode()).as(attached.stderr()).isZero();
    assertThat(moduleGraphLines(attached)).isEqualTo(moduleGraphLines(plain)).isNotEmpty();
  }

  /**
   * The probe classes are defined in the bootstrap loader, not appended to the boot class path, so
   * the JVM does not warn that it shares only boot loader classes, and an application class from a
   * dynamic AppCDS archive still loads from it (on JDK 25 it did not with the appended jar). CDS is
   * checked without {@code -Xverify:all}, with which the JVM maps no archive at all.
   */
  @ParameterizedTest(name = "{0}")
  @MethodSource("jdks")
  void theJvmKeepsSharingApplicationClassesFromItsCdsArchive(Jdks.Jdk jdk) throws Exception {
    Path jar = workloadJar();
    Path archive = dir.resolve("app-" + jdk.major() + ".jsa");
    ChildJvm.Result archiving =
        countingFromJar(jdk, jar, List.of("-XX:ArchiveClassesAtExit=" + archive));
    assertThat(archiving.exitCode()).as(archiving.stderr()).isZero();
    assertThat(archive).isNotEmptyFile();

    ChildJvm.Result attached =
        countingFromJar(
            jdk,
            jar,
            List.of(
                "-XX:SharedArchiveFile=" + archive,
                "-Xlog:class+load=info:stderr",
                ChildJvm.javaagent(
                    "service=it,include=sample.workload.Workload,sampling.rate=1,log=info,"
                        + "shutdown.flush.timeout.ms=0,daemon=127.0.0.1:"
                        + closedPort())));

    assertThat(attached.exitCode()).as(attached.stderr()).isZero();
    // JDK 25 prints to stdout that -javaagent's module option costs it the archived module graph.
    assertThat(attached.stdout()).endsWith("sum=10\n");
    assertThat(attached.stderr())
        .doesNotContain("Sharing is only supported", "probe classes in the bootstrap loader")
        .containsPattern("dev\\.whyslow\\.agent\\.bootstrap\\.Probes source: __JVM_DefineClass__")
        .containsPattern("sample\\.workload\\.Counting source: shared objects file");
    // Not agentLines(): the JVM writes each class+load line to stderr in pieces (decorations,
    // then the message), so one printed by another thread at exit can land in front of the
    // agent's exit line and take its "[whyslow]" from the start of the line.
    assertThat(attached.stderr()).contains("agent errors 0");
  }

  /**
   * On JDK 25, whose AOT cache ({@code -XX:AOTCache}) loads the application's classes before
   * premain runs, the agent attached as {@code -agentlib:instrument} keeps the cache (with {@code
   * -javaagent} the JVM refuses it) and instruments the cached classes in its scope by
   * retransforming them: the counts are exact as without the cache. Attached by {@code -javaagent}
   * it says how to keep the cache.
   */
  @ParameterizedTest(name = "{0}")
  @MethodSource("jdks")
  void withAnAotCacheTheCachedClassesInScopeAreInstrumentedAndCountExactly(Jdks.Jdk jdk)
      throws Exception {
    assumeTrue(
        jdk.major() >= 25, "the AOT cache (-XX:AOTCacheOutput) needs JDK 25; skipped on " + jdk);
    Path jar = workloadJar();
    Path cache = dir.resolve("app.aot");
    ChildJvm.Result training = countingFromJar(jdk, jar, List.of("-XX:AOTCacheOutput=" + cache));
    assertThat(training.exitCode()).as(training.stderr()).isZero();
    assertThat(cache).isNotEmptyFile();

    Path dump = dir.resolve("aot.dump");
    ChildJvm.Result attached =
        countingFromJar(
            jdk,
            jar,
            List.of(
                "-XX:AOTCache=" + cache,
                "-Xlog:class+load=info:stderr",
                ChildJvm.agentlib(
                    "service=it,include=sample.workload.Counting,sampling.rate=1,"
                        + "shutdown.flush.timeout.ms=0,dump="
                        + dump
                        + ",daemon=127.0.0.1:"
                        + closedPort())));

    assertThat(attached.exitCode()).as(attached.stderr()).isZero();
    assertThat(attached.stdout()).isEqualTo("sum=10\n");
    assertThat(attached.stderr())
        .containsPattern("sample\\.workload\\.Counting source: shared objects file")
        .doesNotContain("[error][aot]");
    assertThat(RunDump.read(dump).sitesOf(COUNTING, "half").get(0).observed()).isEqualTo(5);

    ChildJvm.Result javaagent =
        countingFromJar(
            jdk,
            jar,
            List.of(
                "-XX:AOTCache=" + cache,
                ChildJvm.javaagent(
                    "service=it,include=sample.workload.Counting,log=info,"
                        + "shutdown.flush.timeout.ms=0,daemon=127.0.0.1:"
                        + closedPort())));
    assertThat(javaagent.exitCode()).as(javaagent.stderr()).isZero();
    assertThat(javaagent.agentLines())
        .anySatisfy(l -> assertThat(l).contains("AOT cache", "-agentlib:instrument="));
  }

  /** {@code Counting} from {@code jar} rather than the test classes, with {@code jvmOptions}. */
  private ChildJvm.Result countingFromJar(Jdks.Jdk jdk, Path jar, List<String> jvmOptions)
      throws Exception {
    return ChildJvm.run(jdk, jvmOptions, jar, COUNTING, List.of(), dir, Map.of());
  }

  /** The sample workload's classes in a jar: CDS archives application classes only from jars. */
  private Path workloadJar() throws IOException {
    Path jar = dir.resolve("work.jar");
    Path classes = ChildJvm.testClasses();
    try (JarOutputStream out = new JarOutputStream(Files.newOutputStream(jar));
        Stream<Path> files = Files.walk(classes.resolve("sample/workload"))) {
      for (Path file : files.filter(Files::isRegularFile).toList()) {
        out.putNextEntry(new JarEntry(classes.relativize(file).toString().replace('\\', '/')));
        out.write(Files.readAllBytes(file));
        out.closeEntry();
      }
    }
    return jar;
  }

  /** What the JVM's CDS log says of the module graph, without its time stamps. */
  private static List<String> moduleGraphLines(ChildJvm.Result r) {
    return r.stderr()
        .lines()
        .filter(l -> l.contains("full module graph:"))
        .map(l -> l.substring(l.indexOf("full module graph:")))
        .toList();
  }

  @Test
  void aDisabledProcessRunIsNeitherDumpedNorSent() throws Exception {
    Path dump = dir.resolve("norun.dump");
    ChildJvm.Result r =
        ChildJvm.run(
            Jdks.all().get(0),
            List.of(
                ChildJvm.javaagent(
                    "service=it,include=sample.workload,process.run=false,sampling.rate=1,"
                        + "shutdown.flush.timeout.ms=0,log=info,dump="
                        + dump
                        + ",daemon=127.0.0.1:"
                        + closedPort())),
            COUNTING,
            List.of(),
            dir);
    assertThat(r.exitCode()).isZero();
    assertThat(dump).doesNotExist();
    assertThat(r.agentLines()).anySatisfy(l -> assertThat(l).contains("dropped 0"));
  }

  /** What ManyEvaluations prints: the set bits of its 200,000 numbers. */
  private static long expectedBits() {
    long bits = 0;
    for (int i = 0; i < 200_000; i++) {
      bits += Integer.bitCount(i * 31 + 7);
    }
    return bits;
  }

  /** A port nothing listens on: bound once to get a free number, then closed. */
  static int closedPort() throws IOException {
    try (ServerSocket socket = new ServerSocket(0)) {
      return socket.getLocalPort();
    }
  }
}
