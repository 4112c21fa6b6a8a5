package dev.whyslow.bench.probe;

import dev.whyslow.agent.bootstrap.Probes;
import dev.whyslow.agent.bootstrap.ThreadState;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.CompilerControl;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * What an instrumented method pays at its entry to find its thread's state, the work every call of
 * a method the JIT does not inline repeats: a method that is not inlined reads and writes one
 * countdown, found through {@code Probes.state()} (the agent's lookup), through {@code
 * Thread.currentThread()} alone against one known state (the least any per-thread lookup must do),
 * through a {@link ThreadLocal}, or held in a static field (no lookup at all, one thread only). See
 * bench/README.md.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 5, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(3)
public class ThreadStateLookupBenchmark {
  private static final ThreadLocal<int[]> LOCAL = ThreadLocal.withInitial(() -> new int[1]);
  private static ThreadState known;
  private static Thread knownThread;
  private static int staticCountdown = 1 << 30;

  @Benchmark
  public int agentLookup() {
    return viaProbes();
  }

  @Benchmark
  public int currentThreadOnly() {
    return viaCurrentThread();
  }

  @Benchmark
  public int threadLocal() {
    return viaThreadLocal();
  }

  @Benchmark
  public int staticField() {
    return viaStatic();
  }

  @CompilerControl(CompilerControl.Mode.DONT_INLINE)
  private static int viaProbes() {
    ThreadState s = Probes.state();
    return --s.countdown;
  }

  @CompilerControl(CompilerControl.Mode.DONT_INLINE)
  private static int viaCurrentThread() {
    ThreadState s = known;
    if (knownThread != Thread.currentThread() || s == null) {
      s = Probes.state();
      known = s;
      knownThread = Thread.currentThread();
    }
    return --s.countdown;
  }

  @CompilerControl(CompilerControl.Mode.DONT_INLINE)
  private static int viaThreadLocal() {
    int[] cd = LOCAL.get();
    return --cd[0];
  }

  @CompilerControl(CompilerControl.Mode.DONT_INLINE)
  private static int viaStatic() {
    return --staticCountdown;
  }
}
