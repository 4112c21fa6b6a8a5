package dev.whyslow.bench.diagnosis;

import dev.whyslow.daemon.diagnosis.CbiModel;
import dev.whyslow.daemon.diagnosis.DiagnosisOptions;
import dev.whyslow.daemon.diagnosis.PredicateFilter;
import dev.whyslow.daemon.diagnosis.PredicateTable;
import dev.whyslow.daemon.diagnosis.Ranking;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * CBI's budget (≤ 2 s for 10,000 runs × 100,000 predicates): the model on a built table, and the
 * whole path a diagnosis request takes, from stored runs to a ranking. Each run observes 2,000 of
 * the 50,000 branch sites.
 *
 * <p>{@code java -jar bench/target/whyslow-bench.jar CbiBenchmark -f 1 -wi 1 -i 3}
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Fork(value = 1, jvmArgsAppend = "-Xmx6g")
@Warmup(iterations = 1, time = 5)
@Measurement(iterations = 3, time = 5)
public class CbiBenchmark {
  static final int RUNS = 10_000;
  static final int SITES = 50_000;
  static final int SITES_PER_RUN = 2_000;

  /** A window of stored runs, as the store returns it. */
  @State(Scope.Benchmark)
  public static class Runs {
    SyntheticWindows.Window window;

    @Setup(Level.Trial)
    public void setUp() {
      window = SyntheticWindows.cbi(RUNS, SITES, SITES_PER_RUN, 1);
    }
  }

  /** The same window already turned into a predicate table. */
  @State(Scope.Benchmark)
  public static class Table {
    PredicateTable table;

    @Setup(Level.Trial)
    public void setUp() {
      SyntheticWindows.Window window = SyntheticWindows.cbi(RUNS, SITES, SITES_PER_RUN, 1);
      table = PredicateTable.from(window.runs(), window.sites(), PredicateFilter.all());
    }
  }

  @Benchmark
  public Ranking rank(Table state) {
    return new CbiModel().rank(state.table, DiagnosisOptions.defaults());
  }

  @Benchmark
  public Ranking fromStoredRunsAndRank(Runs state) {
    PredicateTable table =
        PredicateTable.from(state.window.runs(), state.window.sites(), PredicateFilter.all());
    return new CbiModel().rank(table, DiagnosisOptions.defaults());
  }
}
