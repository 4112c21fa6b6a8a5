package dev.whyslow.bench.probe;

import dev.whyslow.agent.core.UnitHistogramRecorder;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Threads;
import org.openjdk.jmh.annotations.Warmup;

/**
 * What recording a unit's end into its type's histogram costs, the work every unit's end does on
 * the application thread, with one thread ending units of the type and with as many as the host has
 * cores ending them at once. {@code stripes=1} is the single lock the recorder had until
 * 2026-12-03; with more, threads take the lock of the stripe their id picks. A unit ends every few
 * milliseconds per thread in a service, not every few nanoseconds, so this is the worst case of
 * contention, which is the point: it shows what a burst of short units on a large host would wait.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 5, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(3)
public class UnitHistogramBenchmark {
  @Param({"1", "16"})
  public int stripes;

  private UnitHistogramRecorder recorder;

  @Setup(Level.Trial)
  public void create() {
    recorder = new UnitHistogramRecorder("bench.unit", stripes);
  }

  /** Every second, as the units' worker does, so the interval stays as small as in a service. */
  @Setup(Level.Iteration)
  public void drain() {
    recorder.drain();
  }

  @Benchmark
  @Threads(1)
  public void oneThread() {
    recorder.record(1_234_567, false);
  }

  @Benchmark
  @Threads(Threads.MAX)
  public void everyCore() {
    recorder.record(1_234_567, false);
  }
}
