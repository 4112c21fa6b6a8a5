package dev.whyslow.bench.overhead;

import dev.whyslow.agent.bootstrap.ChunkedRunCounts;
import dev.whyslow.agent.bootstrap.ContextTable;
import dev.whyslow.agent.bootstrap.Probes;
import dev.whyslow.agent.bootstrap.UnitModel;
import dev.whyslow.agent.bootstrap.UnitType;
import dev.whyslow.agent.bootstrap.Units;
import dev.whyslow.agent.config.InvocationSampling;
import dev.whyslow.agent.config.ProbeSet;
import dev.whyslow.agent.core.MethodRegistry;
import dev.whyslow.agent.core.SiteRegistry;
import dev.whyslow.agent.instrument.ClassInstrumenter;
import dev.whyslow.agent.instrument.InstrumentationCounters;
import dev.whyslow.bench.IgnoringUnitListener;
import dev.whyslow.bench.MedianInterval;
import java.io.IOException;
import java.io.InputStream;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Predicate;

/**
 * The steady-state cost of the agent's instrumentation on a workload, with the noise of separate
 * JVMs taken out: one JVM holds the workload twice, as javac wrote it and as the agent's real
 * {@link ClassInstrumenter} rewrites it, and times batches of rounds of each in turn (A B, B A, …).
 * Both copies share the machine's moment, the JDK's compiled code and the heap, so the ratio of
 * each batch pair is the instrumentation's cost alone; the result is the median of those ratios.
 *
 * <p>What it leaves out, and {@link ProcessOverheadBenchmark} keeps: the agent's start-up, the
 * transport thread and the JIT's work on the larger code. Use this one to compare instrumentation
 * variants quickly; report the whole-process one.
 *
 * <p>Usage: {@code InProcessOverheadBenchmark [workload=OrderWorkload] [batches=40] [rounds=10]
 * [warmup=150] [options]} where options are comma-separated {@code rate=0.0001}, {@code
 * probes=branch,return|branch|return}, {@code fastpath=on|off}, {@code units=on|off}, {@code
 * inunit=on|off|guards|switch}, {@code only=Class1,Class2}, {@code share=0.05}. With {@code
 * inunit=on} each instrumented round runs as a unit of work, as a service's requests do, so every
 * method entry takes the in-unit path (no guards, no tracing); {@code inunit=guards} runs the
 * rounds in units that count depth in no frame, as {@code units.depth=auto} does with guards the
 * workload never reaches, and {@code inunit=switch} counts every frame for the first half of the
 * warm-up and no frame from then on, as the agent switches after training. With {@code only=} the
 * instrumented copy has only the named classes of the workload's package instrumented (simple
 * names; nested classes go with their outer class), which shows how the cost is spread over the
 * code. With {@code share=} a share of invocations runs the copies with probes, at the rate over
 * the share, as the agent's {@code sampling.invocation.share} does (default 0.05; 1 runs every
 * invocation's probes, and so does a rate above a tenth of the share); the others run their own
 * code, or their depth-only copy. With {@code cold=<KiB>} the workload's {@code request(int)} runs
 * one request at a time (each its own unit with {@code inunit=}), after writing a buffer of that
 * size to empty the caches, as a service's requests find them ({@link ColdRequests}); only the
 * requests are timed.
 */
public final class InProcessOverheadBenchmark {
  /** Where a workload named without a package is looked up. */
  static final String DEFAULT_PACKAGE = "dev.whyslow.examples.cpu.";

  private InProcessOverheadBenchmark() {}

  private static final String USAGE =
      "usage: InProcessOverheadBenchmark"
          + " [CpuWorkload|OrderWorkload|dev.whyslow.examples.shop.ShopWorkload] [batches] [rounds]"
          + " [warmup]"
          + " [rate=0.0001,probes=branch,return|branch|return|none,fastpath=on|off,units=on|off,"
          + "inunit=on|off|guards|switch,only=Class1,Class2,share=0.05,cold=2048]";

  public static void main(String[] args) throws Throwable {
    String workload;
    int batches;
    int rounds;
    int warmup;
    Options options;
    try {
      String name = args.length > 0 ? args[0] : "OrderWorkload";
      workload = name.contains(".") ? name : DEFAULT_PACKAGE + name;
      batches = args.length > 1 ? positive(args[1]) : 40;
      rounds = args.length > 2 ? positive(args[2]) : 10;
      warmup = args.length > 3 ? Integer.parseInt(args[3]) : 150;
      options = Options.parse(args.length > 4 ? args[4] : "");
      InProcessOverheadBenchmark.class.getClassLoader().loadClass(workload);
    } catch (IllegalArgumentException | ClassNotFoundException e) {
      String why = e instanceof ClassNotFoundException ? "no workload class " : "";
      System.err.println("bad argument: " + why + e.getMessage() + "\n" + USAGE);
      System.exit(2);
      return;
    }

    SiteRegistry sites = new SiteRegistry(1_000_000);
    InstrumentationCounters counters = new InstrumentationCounters();
    ClassInstrumenter instrumenter =
        ClassInstrumenter.builder(
                sites,
                new ProbeSet(options.branches, options.returns).withFastPath(options.fastPath),
                counters)
            .methods(new MethodRegistry())
            .units(options.units, List.of())
            .copies(true)
            .build();
    Probes.warmUp();
    Probes.setProcessRun(new ChunkedRunCounts(sites.slotCapacity()));
    // As the agent does: a share of invocations runs the probes, at the rate over the share.
    Probes.setSamplingRate(
        options.rate, new InvocationSampling(true, options.share).shareAt(options.rate));

    // The workload's whole package is loaded (and instrumented) in each copy.
    String inScope = workload.substring(0, workload.lastIndexOf('.') + 1);
    // With cold=, the handles serve one request each, and each instrumented one is a unit.
    String entry = options.coldKib > 0 ? "request" : "round";
    MethodHandle plain = entry(new WorkloadLoader(null, inScope, name -> false), workload, entry);
    MethodHandle instrumented =
        entry(new WorkloadLoader(instrumenter, inScope, options::instruments), workload, entry);
    ColdRequests cold = new ColdRequests(options.coldKib);
    if (options.inUnit) {
      Units.install(new IgnoringUnitListener("bench.round"));
      instrumented =
          MethodHandles.lookup()
              .findStatic(
                  InProcessOverheadBenchmark.class,
                  "roundInUnit",
                  MethodType.methodType(long.class, MethodHandle.class, int.class))
              .bindTo(instrumented);
    }
    if (options.depth.equals("guards")) {
      countNoFrames();
    }
    int seed = 0;
    for (int i = 0; i < warmup; i++, seed++) {
      if (i == warmup / 2 && options.depth.equals("switch")) {
        countNoFrames(); // as the agent with units.depth=auto does after training
      }
      if (options.coldKib > 0) {
        long[] spent = new long[1];
        check(cold.round(plain, seed, spent), cold.round(instrumented, seed, spent), seed);
      } else {
        check((long) plain.invokeExact(seed), (long) instrumented.invokeExact(seed), seed);
      }
    }
    // Counted after the warm-up: the workload's classes load lazily, as its rounds first use them.
    System.out.printf(
        Locale.ROOT,
        "%s, %s; %d classes instrumented, %d methods with a fast path%n",
        workload,
        options,
        counters.classesInstrumented(),
        counters.methodsWithFastPath());
    if (!options.only.isEmpty() && counters.classesInstrumented() == 0) {
      System.err.println(
          "only="
              + String.join(",", options.only)
              + " names no class of "
              + inScope
              + " that the workload loads and the agent instruments; give simple class names,"
              + " such as only=ProductPage");
      System.exit(2);
    }
    List<Double> ratios = new ArrayList<>();
    List<Double> plainMs = new ArrayList<>();
    List<Double> instrumentedMs = new ArrayList<>();
    for (int b = 0; b < batches; b++, seed += rounds) {
      double p;
      double q;
      if (options.coldKib > 0) {
        if (b % 2 == 0) {
          p = cold.time(plain, seed, rounds);
          q = cold.time(instrumented, seed, rounds);
        } else {
          q = cold.time(instrumented, seed, rounds);
          p = cold.time(plain, seed, rounds);
        }
      } else if (b % 2 == 0) {
        p = time(plain, seed, rounds);
        q = time(instrumented, seed, rounds);
      } else {
        q = time(instrumented, seed, rounds);
        p = time(plain, seed, rounds);
      }
      plainMs.add(p);
      instrumentedMs.add(q);
      ratios.add(q / p);
    }
    Collections.sort(ratios);
    double median = MedianInterval.median(ratios);
    System.out.printf(
        Locale.ROOT,
        "batches of %d rounds: plain %.2f ms, instrumented %.2f ms (medians)%n"
            + "median batch ratio %.4f (%+.2f %%), quartiles %.4f .. %.4f; samples recorded %d%n",
        rounds,
        MedianInterval.median(plainMs),
        MedianInterval.median(instrumentedMs),
        median,
        (median - 1) * 100,
        ratios.get(ratios.size() / 4),
        ratios.get(ratios.size() * 3 / 4),
        Probes.samplesRecorded());
  }

  /**
   * Units started from now on count depth in no frame: a trained model without guards, whose depth
   * tells nothing ({@code units.depth=auto} with guards that no round of the workload reaches).
   */
  private static void countNoFrames() {
    UnitModel none = new UnitModel(ContextTable.EMPTY, new UnitType[0]);
    Units.publish(none);
    Units.countDepthOnlyWhereNeeded(none);
  }

  private static long roundInUnit(MethodHandle round, int seed) throws Throwable {
    Units.begin("bench.round");
    try {
      return (long) round.invokeExact(seed);
    } finally {
      Units.end();
    }
  }

  static int positive(String text) {
    int n = Integer.parseInt(text);
    if (n <= 0) {
      throw new IllegalArgumentException(text + " is not a positive count");
    }
    return n;
  }

  /** Milliseconds that {@code rounds} calls of {@code round}, from seed {@code seed} on, take. */
  static double time(MethodHandle round, int seed, int rounds) throws Throwable {
    long sink = 0;
    long start = System.nanoTime();
    for (int i = 0; i < rounds; i++) {
      sink += (long) round.invokeExact(seed + i);
    }
    long elapsed = System.nanoTime() - start;
    if (sink == 42) {
      System.out.print(""); // keeps the result alive
    }
    return elapsed / 1e6;
  }

  private static void check(long plain, long instrumented, int seed) {
    if (plain != instrumented) {
      throw new IllegalStateException(
          "round " + seed + " differs: plain " + plain + ", instrumented " + instrumented);
    }
  }

  static MethodHandle round(ClassLoader loader, String workload) throws Exception {
    return entry(loader, workload, "round");
  }

  /** The workload's static {@code long name(int)}: {@code round}, or {@code request} for cold=. */
  static MethodHandle entry(ClassLoader loader, String workload, String name) throws Exception {
    Method round = loader.loadClass(workload).getDeclaredMethod(name, int.class);
    round.setAccessible(true);
    return MethodHandles.lookup().unreflect(round);
  }

  /** Benchmark options, {@code key=value} separated by commas. */
  private record Options(
      double rate,
      boolean branches,
      boolean returns,
      boolean fastPath,
      boolean units,
      boolean inUnit,
      String depth,
      Set<String> only,
      double share,
      int coldKib) {
    /** Whether the instrumented copy instruments this class of the workload's package. */
    boolean instruments(String className) {
      if (only.isEmpty()) {
        return true;
      }
      String simple = className.substring(className.lastIndexOf('.') + 1);
      int nested = simple.indexOf('$');
      return only.contains(nested < 0 ? simple : simple.substring(0, nested));
    }

    static Options parse(String text) {
      double rate = 1e-4;
      boolean branches = true;
      boolean returns = true;
      boolean fastPath = true;
      boolean units = true;
      boolean inUnit = false;
      String depth = "all";
      double share = InvocationSampling.DEFAULT_SHARE;
      int coldKib = 0;
      Set<String> only = new TreeSet<>();
      for (String pair : text.split(",(?=[a-z]+=)")) {
        if (pair.isBlank()) {
          continue;
        }
        String[] kv = pair.split("=", 2);
        if (kv.length != 2) {
          throw new IllegalArgumentException("option " + pair + " is not key=value");
        }
        switch (kv[0]) {
          case "rate" -> {
            rate = Double.parseDouble(kv[1]);
            if (!(rate > 0 && rate <= 1)) {
              throw new IllegalArgumentException("rate must be in (0, 1], not " + kv[1]);
            }
          }
          case "probes" -> {
            branches = kv[1].contains("branch");
            returns = kv[1].contains("return");
          }
          case "fastpath" -> fastPath = onOff(pair, kv[1]);
          case "units" -> units = onOff(pair, kv[1]);
          case "inunit" -> {
            if (!List.of("on", "off", "guards", "switch").contains(kv[1])) {
              throw new IllegalArgumentException(pair + ": expected on, off, guards or switch");
            }
            inUnit = !kv[1].equals("off");
            depth = kv[1].equals("guards") || kv[1].equals("switch") ? kv[1] : "all";
          }
          case "share" -> {
            share = Double.parseDouble(kv[1]);
            if (!(share > 0 && share <= 1)) {
              throw new IllegalArgumentException("share must be in (0, 1], not " + kv[1]);
            }
          }
          case "cold" -> {
            coldKib = Integer.parseInt(kv[1]);
            if (coldKib < 0 || coldKib > 1 << 20) {
              throw new IllegalArgumentException("cold must be 0..1048576 KiB, not " + kv[1]);
            }
          }
          case "only" -> {
            for (String name : kv[1].split(",")) {
              if (!name.isBlank()) {
                only.add(name.trim());
              }
            }
          }
          default -> throw new IllegalArgumentException("unknown option " + pair);
        }
      }
      return new Options(
          rate, branches, returns, fastPath, units, inUnit, depth, only, share, coldKib);
    }

    private static boolean onOff(String pair, String value) {
      if (!value.equals("on") && !value.equals("off")) {
        throw new IllegalArgumentException(pair + ": expected on or off");
      }
      return value.equals("on");
    }

    @Override
    public String toString() {
      return String.format(
          Locale.ROOT,
          "rate %s, branches %s, returns %s, fast path %s, units %s, in a unit %s (depth %s), share"
              + " %s%s%s",
          rate,
          branches,
          returns,
          fastPath,
          units,
          inUnit,
          depth,
          share,
          only.isEmpty() ? "" : ", only " + String.join(" ", only),
          coldKib == 0 ? "" : ", requests one by one after writing " + coldKib + " KiB");
    }
  }

  /**
   * Defines the workload package's classes itself, rewritten when given an instrumenter, so each
   * copy of the workload has its own classes; everything else comes from the parent.
   */
  static final class WorkloadLoader extends ClassLoader {
    private final ClassInstrumenter instrumenter;
    private final String inScope;
    private final Predicate<String> instrumented;

    WorkloadLoader(ClassInstrumenter instrumenter, String inScope) {
      this(instrumenter, inScope, name -> true);
    }

    WorkloadLoader(ClassInstrumenter instrumenter, String inScope, Predicate<String> instrumented) {
      super(InProcessOverheadBenchmark.class.getClassLoader());
      this.instrumenter = instrumenter;
      this.inScope = inScope;
      this.instrumented = instrumented;
    }

    @Override
    protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
      if (!name.startsWith(inScope)) {
        return super.loadClass(name, resolve);
      }
      synchronized (getClassLoadingLock(name)) {
        Class<?> c = findLoadedClass(name);
        if (c == null) {
          byte[] bytes = classFile(name);
          byte[] rewritten =
              instrumenter == null || !instrumented.test(name)
                  ? null
                  : instrumenter.instrument(bytes);
          byte[] defined = rewritten == null ? bytes : rewritten;
          c = defineClass(name, defined, 0, defined.length);
        }
        return c;
      }
    }

    private byte[] classFile(String name) throws ClassNotFoundException {
      String resource = name.replace('.', '/') + ".class";
      try (InputStream in = getParent().getResourceAsStream(resource)) {
        if (in == null) {
          throw new ClassNotFoundException(name);
        }
        return in.readAllBytes();
      } catch (IOException e) {
        throw new ClassNotFoundException(name, e);
      }
    }
  }
}
