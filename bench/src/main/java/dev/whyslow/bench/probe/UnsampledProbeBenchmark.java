package dev.whyslow.bench.probe;

import dev.whyslow.agent.bootstrap.ChunkedRunCounts;
import dev.whyslow.agent.bootstrap.Probes;
import dev.whyslow.agent.config.ProbeSet;
import dev.whyslow.agent.core.SiteRegistry;
import dev.whyslow.agent.instrument.ClassInstrumenter;
import dev.whyslow.agent.instrument.InstrumentationCounters;
import java.io.IOException;
import java.io.InputStream;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The cost of the agent's probes when they do not sample: {@link ProbeKernel} as javac wrote it
 * against the same class rewritten by the agent's real {@link ClassInstrumenter}, at the production
 * rate of 1/10000 (and at rate 1, to show what sampling costs). Per-probe cost is {@code
 * (instrumented - plain) / (2 * size + 2)} ns; run with {@code -prof gc} to see the allocation per
 * operation (the budget is 0 B). See bench/README.md.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 5, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(3)
public class UnsampledProbeBenchmark {
  @Param({"1024"})
  public int size;

  @Param({"0.0001"})
  public double rate;

  private int[] data;
  private MethodHandle plain;
  private MethodHandle instrumented;

  @Setup
  public void setUp() throws Exception {
    data = new int[size];
    SplittableRandom random = new SplittableRandom(7);
    for (int i = 0; i < size; i++) {
      data[i] = random.nextInt(1000);
    }
    byte[] original = classFile(ProbeKernel.class);
    SiteRegistry registry = new SiteRegistry(100_000);
    byte[] rewritten =
        new ClassInstrumenter(registry, ProbeSet.DEFAULT, new InstrumentationCounters())
            .instrument(original);
    if (rewritten == null) {
      throw new IllegalStateException("the instrumenter found nothing to instrument");
    }
    Probes.setProcessRun(new ChunkedRunCounts(registry.slotCapacity()));
    Probes.setSamplingRate(rate);
    plain = sumBelow(new OneClassLoader(ProbeKernel.class.getName(), original));
    instrumented = sumBelow(new OneClassLoader(ProbeKernel.class.getName(), rewritten));
  }

  @Benchmark
  public long plain() throws Throwable {
    return (long) plain.invokeExact(data, 500);
  }

  @Benchmark
  public long instrumented() throws Throwable {
    return (long) instrumented.invokeExact(data, 500);
  }

  private static MethodHandle sumBelow(ClassLoader loader) throws Exception {
    Class<?> kernel = loader.loadClass(ProbeKernel.class.getName());
    return MethodHandles.publicLookup()
        .findStatic(kernel, "sumBelow", MethodType.methodType(long.class, int[].class, int.class));
  }

  private static byte[] classFile(Class<?> type) throws IOException {
    String resource = type.getName().replace('.', '/') + ".class";
    try (InputStream in = type.getClassLoader().getResourceAsStream(resource)) {
      return in.readAllBytes();
    }
  }

  /** Defines one class from the given bytes; everything else (the probes) comes from the parent. */
  static final class OneClassLoader extends ClassLoader {
    private final String name;
    private final byte[] bytes;

    OneClassLoader(String name, byte[] bytes) {
      super(UnsampledProbeBenchmark.class.getClassLoader());
      this.name = name;
      this.bytes = bytes;
    }

    @Override
    protected Class<?> loadClass(String className, boolean resolve) throws ClassNotFoundException {
      synchronized (getClassLoadingLock(className)) {
        if (!className.equals(name)) {
          return super.loadClass(className, resolve);
        }
        Class<?> c = findLoadedClass(className);
        if (c == null) {
          c = defineClass(className, bytes, 0, bytes.length);
        }
        return c;
      }
    }
  }
}
