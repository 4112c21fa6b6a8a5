package dev.whyslow.agent.instrument;

import static org.assertj.core.api.Assertions.assertThat;

import dev.whyslow.agent.bootstrap.ChunkedRunCounts;
import dev.whyslow.agent.bootstrap.Probes;
import dev.whyslow.agent.bootstrap.ThreadState;
import dev.whyslow.agent.config.ProbeSet;
import dev.whyslow.agent.core.ProcessRunBuilder;
import dev.whyslow.agent.core.SiteRegistry;
import dev.whyslow.protocol.SiteCounts;
import java.io.InputStream;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import sample.fixture.Branchy;
import sample.fixture.Countdowns;
import sample.fixture.LoopShapes;

/**
 * CBI's fast path must not change which evaluation is recorded: for every starting countdown, a
 * method with the fast path records exactly the predicates the same method with checked probes only
 * records, and leaves the same countdown behind. The fixtures cover straight code, loops with one
 * and several probes, nested loops, calls inside and before loops, handlers and {@code break}.
 */
class FastPathEquivalenceTest {
  private static final int[] XS = {3, 12, 7, 25, 1, -4, 9};

  /** One call: the fixture class, the method name, its arguments. */
  private record Call(Class<?> fixture, String method, Object... args) {
    @Override
    public String toString() {
      return fixture.getSimpleName() + "." + method + Arrays.deepToString(args);
    }
  }

  private static final List<Call> CALLS =
      List.of(
          new Call(Countdowns.class, "countBelow", XS, 10),
          new Call(Countdowns.class, "twice", (Object) XS),
          new Call(Countdowns.class, "caught", (Object) XS),
          new Call(Countdowns.class, "afterCallback", (Runnable) () -> {}, XS),
          new Call(Countdowns.class, "callFirst", (Object) XS),
          new Call(Countdowns.class, "skipBelow", XS, 20),
          new Call(Countdowns.class, "sumThenCount", 6),
          new Call(LoopShapes.class, "forLoop", 9),
          new Call(LoopShapes.class, "whileTrueWithBreak", XS),
          new Call(LoopShapes.class, "nested", 5),
          new Call(LoopShapes.class, "innerProducts", 4),
          new Call(LoopShapes.class, "doWhile", 6),
          new Call(LoopShapes.class, "tryInLoop", (Object) new String[] {"1", "x", "3", "-2"}),
          new Call(Branchy.class, "countPositives", XS),
          new Call(Branchy.class, "sumLongs", new long[] {1, -2, 3, 0, 5}, 0.5),
          new Call(Branchy.class, "parseAll", (Object) new String[] {"4", "y", "-6", "7"}));

  @BeforeEach
  void rareRedraws() {
    // After the first sample the next draw is mostly ~10^6 evaluations away, beyond one call.
    Probes.setSamplingRate(1e-6);
  }

  @AfterEach
  void restoreProbes() {
    Probes.setProcessRun(null);
    Probes.setSamplingRate(1e-4);
  }

  @Test
  void everyStartingCountdownRecordsTheSameEvaluationWithAndWithoutTheFastPath() throws Exception {
    Instrumented checked = new Instrumented(false);
    Instrumented fast = new Instrumented(true);
    assertThat(fast.counters.methodsWithFastPath()).as("methods given a fast path").isPositive();
    for (Call call : CALLS) {
      int evaluations = checked.evaluationsOf(call);
      assertThat(fast.evaluationsOf(call)).as("evaluations of %s", call).isEqualTo(evaluations);
      for (int start = 1; start <= evaluations + 1; start++) {
        assertThat(fast.run(call, start))
            .as("%s starting at countdown %d", call, start)
            .isEqualTo(checked.run(call, start));
      }
    }
  }

  @Test
  void withManySamplesPerCallTheSameDrawsRecordTheSameEvaluations() throws Exception {
    // Both copies draw from the same seed, so every later sample must fall alike too: this covers
    // several samples inside one loop and settling a loop's samples at its exit.
    Probes.setSamplingRate(0.3);
    Instrumented checked = new Instrumented(false);
    Instrumented fast = new Instrumented(true);
    for (Call call : CALLS) {
      for (int start = 1; start <= 8; start++) {
        assertThat(fast.run(call, start))
            .as("%s starting at countdown %d", call, start)
            .isEqualTo(checked.run(call, start));
      }
    }
  }

  @Test
  void atRateOneEveryEvaluationIsRecordedAlike() throws Exception {
    // Every evaluation sampled: a loop settled at its exit records each of its evaluations too.
    Probes.setSamplingRate(1.0);
    Instrumented checked = new Instrumented(false);
    Instrumented fast = new Instrumented(true);
    for (Call call : CALLS) {
      assertThat(fast.run(call, 1)).as("%s", call).isEqualTo(checked.run(call, 1));
    }
  }

  /** The three fixtures instrumented with or without the fast path, in a loader of their own. */
  private static final class Instrumented {
    final InstrumentationCounters counters = new InstrumentationCounters();
    final SiteRegistry registry = new SiteRegistry(100_000);
    final Map<Class<?>, Class<?>> loaded = new java.util.HashMap<>();

    Instrumented(boolean fastPath) throws Exception {
      ClassInstrumenter instrumenter =
          new ClassInstrumenter(registry, ProbeSet.DEFAULT.withFastPath(fastPath), counters);
      for (Class<?> fixture : List.of(Countdowns.class, LoopShapes.class, Branchy.class)) {
        byte[] original;
        try (InputStream in = fixture.getResourceAsStream(fixture.getSimpleName() + ".class")) {
          original = in.readAllBytes();
        }
        byte[] instrumented = instrumenter.instrument(original);
        loaded.put(
            fixture,
            Class.forName(fixture.getName(), true, new BytesLoader(fixture, instrumented)));
      }
    }

    /** How many evaluations the call makes: the countdown it uses up when nothing is sampled. */
    int evaluationsOf(Call call) throws Exception {
      Probes.setProcessRun(new ChunkedRunCounts(registry.slotCapacity()));
      ThreadState s = Probes.state();
      s.countdown = 1_000_000_000;
      invoke(call);
      return 1_000_000_000 - s.countdown;
    }

    /**
     * Runs the call from countdown {@code start}, with draws seeded by {@code start}: the counts of
     * every site, and the countdown left behind when nothing was sampled.
     */
    String run(Call call, int start) throws Exception {
      ChunkedRunCounts counts = new ChunkedRunCounts(registry.slotCapacity());
      Probes.setProcessRun(counts);
      ThreadState s = Probes.state();
      s.countdown = start;
      s.reseed(start); // the draws after a sample are the same on both sides
      Object result = invoke(call);
      Map<Long, String> bySite = new TreeMap<>();
      long samples = 0;
      for (SiteRegistry.Entry e : registry.entries()) {
        SiteCounts c = ProcessRunBuilder.countsOf(e, counts);
        if (c.observed() > 0) {
          bySite.put(c.siteKey(), c.observed() + " " + Arrays.toString(c.trueCounts()));
          samples += c.observed();
        }
      }
      return "result="
          + result
          + " sampled="
          + bySite
          + (samples == 0 ? " left=" + s.countdown : "");
    }

    private Object invoke(Call call) throws Exception {
      for (Method m : loaded.get(call.fixture()).getMethods()) {
        if (m.getName().equals(call.method()) && m.getParameterCount() == call.args().length) {
          try {
            return m.invoke(null, call.args());
          } catch (InvocationTargetException e) {
            return "threw " + e.getCause().getClass().getSimpleName();
          }
        }
      }
      throw new NoSuchMethodException(call.toString());
    }
  }
}
