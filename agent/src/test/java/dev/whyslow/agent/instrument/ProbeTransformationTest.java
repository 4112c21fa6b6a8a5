package dev.whyslow.agent.instrument;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.whyslow.agent.bootstrap.ChunkedRunCounts;
import dev.whyslow.agent.bootstrap.Probes;
import dev.whyslow.agent.config.ProbeSet;
import dev.whyslow.agent.core.ProcessRunBuilder;
import dev.whyslow.agent.core.SiteRegistry;
import dev.whyslow.protocol.SiteCounts;
import dev.whyslow.protocol.SiteKind;
import java.lang.instrument.Instrumentation;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import net.bytebuddy.agent.ByteBuddyAgent;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import sample.fixture.Branchy;

/** Instruments {@link Branchy} in a fresh class loader and checks exact counts at rate 1. */
class ProbeTransformationTest {
  private static final String FIXTURE = "sample.fixture.";

  private Instrumentation instrumentation;
  private SiteRegistry registry;
  private ChunkedRunCounts counts;
  private InstrumentationCounters counters;
  private ProbeTransformer transformer;
  private final List<String> failures = new CopyOnWriteArrayList<>();
  private Class<?> branchy;

  @BeforeEach
  void installTransformer() throws Exception {
    instrumentation = ByteBuddyAgent.install();
    registry = new SiteRegistry(10_000);
    counts = new ChunkedRunCounts(registry.slotCapacity());
    counters = new InstrumentationCounters();
    transformer =
        new ProbeTransformer(
            new Scope(List.of(FIXTURE + "Branchy"), List.of()),
            new ClassInstrumenter(registry, ProbeSet.DEFAULT, counters),
            counters,
            instrumentation,
            (name, error) -> failures.add(name + ": " + error));
    instrumentation.addTransformer(transformer, false);
    try {
      Probes.setSamplingRate(1.0);
      Probes.setProcessRun(counts);
      branchy = new IsolatedLoader(FIXTURE).loadClass(FIXTURE + "Branchy");
    } finally {
      instrumentation.removeTransformer(transformer);
    }
  }

  @AfterEach
  void restoreProbes() {
    Probes.setProcessRun(null);
    Probes.setSamplingRate(1e-4);
  }

  @Test
  void theFixtureIsInstrumentedWithoutFailures() {
    assertThat(failures).isEmpty();
    assertThat(counters.classesInstrumented()).isEqualTo(1);
    assertThat(counters.methodsSkipped()).isZero();
    assertThat(branchy.getClassLoader()).isInstanceOf(IsolatedLoader.class);
  }

  @Test
  void branchAndReturnProbesCountEveryOutcomeAtRateOne() throws Exception {
    for (int x : new int[] {5, -3, 0}) {
      assertThat(call("sign", x)).isEqualTo(Branchy.sign(x));
    }
    List<SiteCounts> sign = countsOf("sign");
    assertThat(kindsOf("sign"))
        .containsExactly(
            SiteKind.BRANCH,
            SiteKind.RETURN_NUMERIC,
            SiteKind.BRANCH,
            SiteKind.RETURN_NUMERIC,
            SiteKind.RETURN_NUMERIC);
    // if (x > 0) is "ifle": taken for -3 and 0.
    assertCounts(sign.get(0), 3, 2, 1);
    assertCounts(sign.get(1), 1, 0, 0, 1, 1, 0, 1); // return 1
    // if (x < 0) is "ifge": taken for 0, not for -3.
    assertCounts(sign.get(2), 2, 1, 1);
    assertCounts(sign.get(3), 1, 1, 1, 0, 0, 0, 1); // return -1
    assertCounts(sign.get(4), 1, 0, 1, 0, 1, 1, 0); // return 0
  }

  @Test
  void loopConditionIsALoopBranchWithExactCounts() throws Exception {
    assertThat(call("countPositives", (Object) new int[] {3, -1, 0, 7})).isEqualTo(2);
    assertThat(kindsOf("countPositives"))
        .containsExactly(SiteKind.LOOP_BRANCH, SiteKind.BRANCH, SiteKind.RETURN_NUMERIC);
    List<SiteCounts> c = countsOf("countPositives");
    assertCounts(c.get(0), 5, 1, 4); // i < xs.length: leaves once
    assertCounts(c.get(1), 4, 2, 2); // xs[i] > 0 is "ifle": taken for -1 and 0
    assertCounts(c.get(2), 1, 0, 0, 1, 1, 0, 1);
  }

  @Test
  void booleanAndReferenceReturnsRecordTheirTwoPredicates() throws Exception {
    call("isNull", (Object) null);
    call("isNull", "x");
    call("isNull", "y");
    assertThat(kindsOf("isNull")).containsExactly(SiteKind.BRANCH, SiteKind.RETURN_BOOLEAN);
    assertCounts(countsOf("isNull").get(0), 3, 2, 1); // ifnonnull: taken for "x" and "y"
    assertCounts(countsOf("isNull").get(1), 3, 2, 1); // false twice, true once

    call("describe", (Object) null);
    call("describe", 42);
    List<SiteCounts> d = countsOf("describe");
    assertThat(kindsOf("describe")).endsWith(SiteKind.RETURN_REFERENCE);
    assertCounts(d.get(d.size() - 1), 2, 1, 1); // null once, non-null once
  }

  @Test
  void instrumentedCodeComputesTheSameResultsAndThrowsTheSameExceptions() throws Exception {
    long[] longs = {4, -2, 9, 0};
    assertThat(call("sumLongs", longs, 1.5)).isEqualTo(Branchy.sumLongs(longs, 1.5));
    assertThat(call("half", 3.0)).isEqualTo(Branchy.half(3.0));
    assertThat(call("negate", 2f)).isEqualTo(Branchy.negate(2f));
    String[] strings = {"1", "x", "3", ""};
    assertThat(call("parseAll", (Object) strings)).isEqualTo(Branchy.parseAll(strings));
    for (int d : new int[] {0, 3, 6, 9}) {
      assertThat(call("day", d)).isEqualTo(Branchy.day(d));
    }
    assertThat(call("failIfNegative", 3)).isEqualTo(3);
    assertThatThrownBy(() -> call("failIfNegative", -1))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("negative: -1");
    Object negative = branchy.getConstructor(int.class).newInstance(-4);
    assertThat(branchy.getMethod("value").invoke(negative)).isEqualTo(4);
  }

  @Test
  void sitesCarryClassMethodSourceLineAndStableKeys() {
    SiteRegistry.Entry first = entriesOf("sign").get(0);
    assertThat(first.site().className()).isEqualTo("sample.fixture.Branchy");
    assertThat(first.site().sourceFile()).isEqualTo("Branchy.java");
    assertThat(first.site().line()).isPositive();
    assertThat(first.site().detail()).isEqualTo("ifle");
    assertThat(first.site().key())
        .isEqualTo(
            dev.whyslow.protocol.SiteKeys.key(
                "sample.fixture.Branchy", "sign", "(I)I", 1, SiteKind.BRANCH));
  }

  private Object call(String name, Object... args) throws Exception {
    for (Method m : branchy.getMethods()) {
      if (m.getName().equals(name) && m.getParameterCount() == args.length) {
        try {
          return m.invoke(null, args);
        } catch (InvocationTargetException e) {
          throw (Exception) e.getCause();
        }
      }
    }
    throw new NoSuchMethodException(name);
  }

  private List<SiteRegistry.Entry> entriesOf(String method) {
    List<SiteRegistry.Entry> out = new ArrayList<>();
    for (SiteRegistry.Entry e : registry.entries()) {
      if (e.site().methodName().equals(method)) {
        out.add(e);
      }
    }
    return out;
  }

  private List<SiteKind> kindsOf(String method) {
    return entriesOf(method).stream().map(e -> e.site().kind()).toList();
  }

  private List<SiteCounts> countsOf(String method) {
    return entriesOf(method).stream().map(e -> ProcessRunBuilder.countsOf(e, counts)).toList();
  }

  private static void assertCounts(SiteCounts c, long observed, long... trueCounts) {
    assertThat(c.observed()).as("observed").isEqualTo(observed);
    assertThat(c.trueCounts()).as("true counts").containsExactly(trueCounts);
  }
}
