package dev.whyslow.agent.instrument;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.whyslow.agent.bootstrap.ChunkedRunCounts;
import dev.whyslow.agent.bootstrap.Probes;
import dev.whyslow.agent.config.ProbeSet;
import dev.whyslow.agent.core.ProcessRunBuilder;
import dev.whyslow.agent.core.SiteRegistry;
import dev.whyslow.protocol.SiteCounts;
import dev.whyslow.protocol.SiteKeys;
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
import sample.fixture.Scalars;

/**
 * Instruments {@link Scalars} with scalar pairs only, in a fresh class loader (so the JVM verifies
 * it), and checks exact counts at rate 1. Counts read (observed; new < other, <=, >, >=, ==, !=).
 */
class ScalarPairTransformationTest {
  private static final String FIXTURE = "sample.fixture.Scalars";

  private SiteRegistry registry;
  private ChunkedRunCounts counts;
  private InstrumentationCounters counters;
  private final List<String> failures = new CopyOnWriteArrayList<>();
  private Class<?> scalars;

  @BeforeEach
  void installTransformer() throws Exception {
    Instrumentation instrumentation = ByteBuddyAgent.install();
    registry = new SiteRegistry(10_000);
    counts = new ChunkedRunCounts(registry.slotCapacity());
    counters = new InstrumentationCounters();
    ProbeTransformer transformer =
        new ProbeTransformer(
            new Scope(List.of(FIXTURE), List.of()),
            new ClassInstrumenter(registry, new ProbeSet(false, false, true, 4), counters),
            counters,
            instrumentation,
            (name, error) -> failures.add(name + ": " + error));
    instrumentation.addTransformer(transformer, false);
    try {
      Probes.setSamplingRate(1.0);
      Probes.setProcessRun(counts);
      scalars = new IsolatedLoader(FIXTURE).loadClass(FIXTURE);
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
  void everyMethodIsInstrumentedAndOnlyScalarPairSitesExist() {
    assertThat(failures).isEmpty();
    assertThat(counters.classesInstrumented()).isEqualTo(1);
    assertThat(counters.methodsSkipped()).isZero();
    assertThat(registry.entries())
        .isNotEmpty()
        .allSatisfy(e -> assertThat(e.site().kind()).isEqualTo(SiteKind.SCALAR_PAIR));
  }

  @Test
  void aLoopStoreIsComparedWithItsOldValueAndTheNearestLocalsWithExactCounts() throws Exception {
    assertThat(call("stepLoop", 5, 3)).isEqualTo(15);
    assertThat(detailsOf("stepLoop"))
        .containsExactly(
            "new j vs n", // j = 0 (i is not assigned yet)
            "new j vs step",
            "new i vs n", // i = 0
            "new i vs step",
            "new i vs j",
            "new j vs old j", // j = j + step
            "new j vs n",
            "new j vs step",
            "new j vs i",
            "new i vs old i", // i++ (iinc)
            "new i vs n",
            "new i vs step",
            "new i vs j");
    List<SiteCounts> c = countsOf("stepLoop");
    assertCounts(c.get(0), 1, 1, 1, 0, 0, 0, 1); // 0 < 5
    assertCounts(c.get(1), 1, 1, 1, 0, 0, 0, 1); // 0 < 3
    assertCounts(c.get(2), 1, 1, 1, 0, 0, 0, 1); // 0 < 5
    assertCounts(c.get(3), 1, 1, 1, 0, 0, 0, 1); // 0 < 3
    assertCounts(c.get(4), 1, 0, 1, 0, 1, 1, 0); // 0 == 0
    assertCounts(c.get(5), 5, 0, 0, 5, 5, 0, 5); // j grows by 3 every time
    assertCounts(c.get(6), 5, 1, 1, 4, 4, 0, 5); // 3, 6, 9, 12, 15 vs 5
    assertCounts(c.get(7), 5, 0, 1, 4, 5, 1, 4); // 3, 6, 9, 12, 15 vs 3
    assertCounts(c.get(8), 5, 0, 0, 5, 5, 0, 5); // 3, 6, 9, 12, 15 vs i = 0..4
    assertCounts(c.get(9), 5, 0, 0, 5, 5, 0, 5); // i grows by 1
    assertCounts(c.get(10), 5, 4, 5, 0, 1, 1, 4); // 1..5 vs 5: new i == n exactly once
    assertCounts(c.get(11), 5, 2, 3, 2, 3, 1, 4); // 1..5 vs 3
    assertCounts(c.get(12), 5, 5, 5, 0, 0, 0, 5); // 1..5 vs j = 3..15
  }

  @Test
  void sitesCarryStableKeysFoldingOrdinalAndPartnerSlotAndTheirLoop() {
    List<SiteRegistry.Entry> entries = entriesOf("stepLoop");
    // "new j vs n": istore_2 is the method's second instruction (ordinal 1), n is slot 0.
    assertThat(entries.get(0).site().key())
        .isEqualTo(SiteKeys.key(FIXTURE, "stepLoop", "(II)I", (1 << 16) | 0, SiteKind.SCALAR_PAIR));
    // "new j vs old j": the partner is the stored slot itself, 2.
    long oldJ = entries.get(5).site().key();
    assertThat(oldJ).isNotEqualTo(entries.get(6).site().key());
    assertThat(entries.get(5).site().line()).isPositive();
    assertThat(entries.get(0).site().loopId()).isEqualTo(-1);
    assertThat(entries.get(5).site().loopId()).isNotNegative();
    assertThat(entries.get(9).site().loopId()).isEqualTo(entries.get(5).site().loopId());
    assertThat(entries).extracting(e -> e.site().key()).doesNotHaveDuplicates();
  }

  @Test
  void longLocalsAreComparedWithOtherLongsOnly() throws Exception {
    assertThat(call("longs", 10L, 4)).isEqualTo(16L);
    assertThat(detailsOf("longs"))
        .containsExactly(
            "new acc vs base", // acc = base
            "new i vs k", // i = 0
            "new acc vs old acc", // acc += i
            "new acc vs base",
            "new i vs old i", // i++
            "new i vs k");
    List<SiteCounts> c = countsOf("longs");
    assertCounts(c.get(0), 1, 0, 1, 0, 1, 1, 0); // 10 == 10
    assertCounts(c.get(1), 1, 1, 1, 0, 0, 0, 1); // 0 < 4
    assertCounts(c.get(2), 4, 0, 1, 3, 4, 1, 3); // + 0, 1, 2, 3
    assertCounts(c.get(3), 4, 0, 1, 3, 4, 1, 3); // 10, 11, 13, 16 vs 10
    assertCounts(c.get(4), 4, 0, 0, 4, 4, 0, 4);
    assertCounts(c.get(5), 4, 3, 4, 0, 1, 1, 3); // 1..4 vs 4
  }

  @Test
  void iincIsComparedWithTheValueItComputesIncludingNegativeStepsAndWrapAround() throws Exception {
    assertThat(call("countdown", 5)).isEqualTo(Scalars.countdown(5));
    assertThat(detailsOf("countdown"))
        .containsExactly(
            "new x vs from",
            "new x vs old x", // x -= 2
            "new x vs from",
            "new y vs from",
            "new y vs x",
            "new y vs old y", // y++ from MAX_VALUE
            "new y vs from",
            "new y vs x");
    List<SiteCounts> c = countsOf("countdown");
    assertCounts(c.get(1), 3, 3, 3, 0, 0, 0, 3); // 5 -> 3 -> 1 -> -1
    assertCounts(c.get(2), 3, 3, 3, 0, 0, 0, 3); // 3, 1, -1 vs 5
    assertCounts(c.get(5), 1, 1, 1, 0, 0, 0, 1); // MIN_VALUE < MAX_VALUE, as iinc wraps
    assertCounts(c.get(6), 1, 1, 1, 0, 0, 0, 1);
  }

  @Test
  void aLocalWithoutAValueYetIsNeitherOldValueNorPartner() throws Exception {
    assertThat(call("late", 3)).isEqualTo(7);
    assertThat(detailsOf("late"))
        .containsExactly(
            "new a vs p", // a = p * 2: b has no value yet
            "new b vs p", // b = a + 1: no old b
            "new b vs a",
            "new a vs old a", // a = b
            "new a vs p",
            "new a vs b");
    assertCounts(countsOf("late").get(3), 1, 0, 0, 1, 1, 0, 1); // 7 > 6
  }

  @Test
  void aSlotTheFrameDropsAtAJoinIsNotLoadedEvenIfEveryPathAssignedIt() throws Exception {
    for (int n : new int[] {4, -4, 0}) {
      assertThat(call("scopes", n)).isEqualTo(Scalars.scopes(n));
    }
    assertThat(detailsOf("scopes"))
        .containsExactly(
            "new a vs n",
            "new r vs n",
            "new r vs a",
            "new b vs n",
            "new r vs n",
            "new r vs b",
            "new c vs n", // no "new c vs old c": slot 2 is out of scope in the join's frame
            "new c vs r");
  }

  @Test
  void booleansAreNeverComparedAndTheCapLimitsPartnersToTheNearestSlots() throws Exception {
    assertThat(call("flags", 7)).isEqualTo(Scalars.flags(7));
    assertThat(detailsOf("flags")).noneSatisfy(d -> assertThat(d).contains("seen"));
    assertThat(detailsOf("flags")).contains("new count vs n", "new i vs count");

    assertThat(call("crowded", 1, 2, 3, 4, 5, 6, 7)).isEqualTo(28);
    assertThat(detailsOf("crowded"))
        .containsExactly("new h vs d", "new h vs e", "new h vs f", "new h vs g");
  }

  @Test
  void resultsAndExceptionsAreUnchanged() throws Exception {
    String[] good = {"1", "x", "30"};
    assertThat(call("parseSum", (Object) good)).isEqualTo(Scalars.parseSum(good));
    String[] bad = {"a", "b", "4", "c"};
    assertThatThrownBy(() -> call("parseSum", (Object) bad))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("bad: 3");
    assertThat(call("stepLoop", 4, -2)).isEqualTo(Scalars.stepLoop(4, -2));
    assertThat(call("longs", Long.MAX_VALUE, 3)).isEqualTo(Scalars.longs(Long.MAX_VALUE, 3));
    assertThat(call("countdown", Integer.MIN_VALUE))
        .isEqualTo(Scalars.countdown(Integer.MIN_VALUE));
    // Stores inside the protected range and in the handler are probed too.
    assertThat(detailsOf("parseSum")).contains("new bad vs old bad", "new v vs i");
  }

  private Object call(String name, Object... args) throws Exception {
    for (Method m : scalars.getMethods()) {
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

  private List<String> detailsOf(String method) {
    return entriesOf(method).stream().map(e -> e.site().detail()).toList();
  }

  private List<SiteCounts> countsOf(String method) {
    return entriesOf(method).stream().map(e -> ProcessRunBuilder.countsOf(e, counts)).toList();
  }

  private static void assertCounts(SiteCounts c, long observed, long... trueCounts) {
    assertThat(c.observed()).as("observed").isEqualTo(observed);
    assertThat(c.trueCounts()).as("true counts").containsExactly(trueCounts);
  }
}
