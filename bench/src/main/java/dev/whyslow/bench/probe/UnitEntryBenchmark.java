package dev.whyslow.bench.probe;

import dev.whyslow.agent.bootstrap.ContextTable;
import dev.whyslow.agent.bootstrap.Probes;
import dev.whyslow.agent.bootstrap.ThreadState;
import dev.whyslow.agent.bootstrap.UnitModel;
import dev.whyslow.agent.bootstrap.UnitType;
import dev.whyslow.agent.bootstrap.Units;
import dev.whyslow.bench.IgnoringUnitListener;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.CompilerControl;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * What the depth count costs at the entry of a depth-counted method, the prologue and epilogue the
 * agent writes into every instrumented method that calls out ({@code Probes.state()}, {@code
 * Units.enter}, the depth put back at the exit), inside a unit of work (as a service's request code
 * runs) and outside one (a batch job's). {@code entry} is one such method the JIT does not inline;
 * {@code inlinedLoop} a loop of 100 calls of one it inlines, as in a request's loops over small
 * helpers. Nothing is traced and the method is not a guard, so an entry has no unit work: what is
 * left is the check that says so, with no model or with a trained model whose guard table covers
 * the method ({@code model=trained}). See bench/LATENCY.md.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 5, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(3)
public class UnitEntryBenchmark {
  private static final int METHOD_ID = 7;

  @Param({"true", "false"})
  public boolean inUnit;

  @Param({"none", "trained"})
  public String model;

  private int value = 1;

  @Setup(Level.Trial)
  public void beginUnit() {
    Probes.warmUp();
    IgnoringUnitListener listener = new IgnoringUnitListener("bench.entry");
    Units.install(listener);
    if (model.equals("trained")) {
      // One guard, method 100, so the guard table has a row for METHOD_ID that says "not a guard".
      ContextTable table = ContextTable.of(1, new int[] {100}, new long[][] {{1L}});
      Units.publish(new UnitModel(table, new UnitType[] {listener.typeOf("bench.entry")}));
    }
    if (inUnit) {
      Units.begin("bench.UnitEntryBenchmark.run");
    }
  }

  @TearDown(Level.Trial)
  public void endUnit() {
    if (inUnit) {
      Units.end();
    }
    Units.install(null);
    Units.publish(null);
  }

  @Benchmark
  public int entry() {
    return counted(value);
  }

  @Benchmark
  public int inlinedLoop() {
    int sum = 0;
    for (int i = 0; i < 100; i++) {
      sum += countedInline(i);
    }
    return sum;
  }

  @CompilerControl(CompilerControl.Mode.DONT_INLINE)
  private static int counted(int v) {
    ThreadState s = Probes.state();
    int d = Units.enter(s, METHOD_ID);
    int result = v * 31 + d;
    s.depth = d - 1;
    return result;
  }

  private static int countedInline(int v) {
    ThreadState s = Probes.state();
    int d = Units.enter(s, METHOD_ID);
    int result = v * 31 + d;
    s.depth = d - 1;
    return result;
  }
}
