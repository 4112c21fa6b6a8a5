package dev.whyslow.bench.guard;

import dev.whyslow.agent.bootstrap.ContextTable;
import dev.whyslow.agent.bootstrap.TypeInference;
import dev.whyslow.agent.units.training.TrainedUnitTypes;
import dev.whyslow.agent.units.training.TrainingSettings;
import dev.whyslow.agent.units.training.UnitCallTrace;
import dev.whyslow.agent.units.training.UnitTypeTrainer;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * A guard's context check with stack-depth inference (what the agent does at a guard: {@code
 * guardIdOf}, {@code candidates}, {@code hit}, {@code best}) against finding the context by
 * capturing the stack, with {@link StackWalker} and with {@link Thread#getStackTrace()}. Each
 * invocation first recurses to {@code depth} frames, then performs {@value #CHECKS} checks there,
 * so the recursion is amortised and every variant sees a realistic stack. The budget: inference at
 * least 20x cheaper. Accuracy is measured by {@link GuardInferenceAccuracy}. See bench/GUARDS.md.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class GuardInferenceBenchmark {
  static final int CHECKS = 64;

  @Param({"20", "40"})
  public int depth;

  private ContextTable table;
  private TypeInference inference;
  private long[] thresholds;

  /** The (method, relative depth) pairs the benchmark's guards are entered at, from real traces. */
  private int[] guardMethods;

  private int[] guardDepths;
  private StackWalker walker;

  @Setup
  public void setUp() {
    SyntheticShopUnits shop = new SyntheticShopUnits(11, 0);
    TrainedUnitTypes types =
        UnitTypeTrainer.train(shop.mixed(200), shop, TrainingSettings.defaults());
    table = types.contextTable();
    inference = new TypeInference(Math.max(1, types.typeCount()));
    thresholds = new long[types.typeCount()];
    for (int t = 0; t < thresholds.length; t++) {
      thresholds[t] = 1_000_000L * (t + 1);
    }
    // Guard entries as they occur in units, cycled so nothing is constant.
    int[] methods = new int[CHECKS];
    int[] depths = new int[CHECKS];
    int n = 0;
    while (n < CHECKS) {
      UnitCallTrace unit = shop.unit(n % SyntheticShopUnits.KINDS);
      for (int i = 0; i < unit.size() && n < CHECKS; i++) {
        methods[n] = unit.methodIds()[i];
        depths[n] = unit.relativeDepths()[i];
        n++;
      }
    }
    guardMethods = methods;
    guardDepths = depths;
    walker = StackWalker.getInstance();
  }

  @Benchmark
  @OperationsPerInvocation(CHECKS)
  public long inferenceAtGuard() {
    return recurse(depth, 0);
  }

  @Benchmark
  @OperationsPerInvocation(CHECKS)
  public long stackWalker() {
    return recurse(depth, 1);
  }

  @Benchmark
  @OperationsPerInvocation(CHECKS)
  public long threadGetStackTrace() {
    return recurse(depth, 2);
  }

  /** Only the recursion, to subtract from the variants above. */
  @Benchmark
  @OperationsPerInvocation(CHECKS)
  public long recursionOnly() {
    return recurse(depth, 3);
  }

  private long recurse(int remaining, int variant) {
    if (remaining > 0) {
      return recurse(remaining - 1, variant) + 1;
    }
    long sum = 0;
    for (int i = 0; i < CHECKS; i++) {
      sum +=
          switch (variant) {
            case 0 -> inferAt(i);
            case 1 -> walkStack();
            case 2 -> stackTrace();
            default -> i;
          };
    }
    return sum;
  }

  /** A guard: the context's candidates, one hit, the current best type; reset as at unit start. */
  private long inferAt(int i) {
    if ((i & 7) == 0) {
      inference.reset();
    }
    int guard = table.guardIdOf(guardMethods[i]);
    if (guard >= 0) {
      inference.hit(table.candidates(guard, guardDepths[i]));
    }
    return inference.best(thresholds);
  }

  /** The context by stack walking: every frame's method, hashed into a context key. */
  private long walkStack() {
    return walker.walk(
        frames ->
            frames
                .mapToLong(f -> f.getMethodName().hashCode() * 31L + f.getClassName().hashCode())
                .sum());
  }

  private static long stackTrace() {
    long key = 0;
    for (StackTraceElement e : Thread.currentThread().getStackTrace()) {
      key = key * 31 + e.getMethodName().hashCode() + e.getClassName().hashCode();
    }
    return key;
  }
}
