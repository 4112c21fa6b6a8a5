package dev.whyslow.bench.diagnosis;

import dev.whyslow.daemon.diagnosis.DeltaLdaModel;
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
 * ΔLDA's budget (≤ 30 s for 1,000 runs × 10,000 predicates × 10^7 tokens, 200 sweeps): one whole
 * default ranking (2 usage + 1 bug topic, 200 sweeps) per measured iteration.
 *
 * <p>{@code java -jar bench/target/whyslow-bench.jar DeltaLdaBenchmark -f 1 -wi 1 -i 3}
 */
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.SECONDS)
@Fork(value = 1, jvmArgsAppend = "-Xmx2g")
@Warmup(iterations = 1)
@Measurement(iterations = 3)
@State(Scope.Benchmark)
public class DeltaLdaBenchmark {
  PredicateTable table;

  @Setup(Level.Trial)
  public void setUp() {
    SyntheticWindows.Window window = SyntheticWindows.deltaLda(1_000, 5_000, 600, 10_000, 1);
    table = PredicateTable.from(window.runs(), window.sites(), PredicateFilter.loopBranches());
    if (table.predicateCount() != 10_000 || window.tokens() < 9_500_000) {
      throw new IllegalStateException(
          "benchmark table drifted from the budget's size: "
              + table.predicateCount()
              + " predicates, "
              + window.tokens()
              + " tokens");
    }
  }

  @Benchmark
  public Ranking rankDefault() {
    return new DeltaLdaModel().rank(table, DiagnosisOptions.defaults());
  }
}
