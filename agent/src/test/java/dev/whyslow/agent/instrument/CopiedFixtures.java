package dev.whyslow.agent.instrument;

import dev.whyslow.agent.bootstrap.ChunkedRunCounts;
import dev.whyslow.agent.bootstrap.Probes;
import dev.whyslow.agent.bootstrap.Units;
import dev.whyslow.agent.config.ProbeSet;
import dev.whyslow.agent.core.MethodRegistry;
import dev.whyslow.agent.core.SiteRegistry;
import java.io.InputStream;
import java.util.List;
import org.objectweb.asm.tree.ClassNode;
import org.objectweb.asm.tree.MethodNode;

/** Fixture classes instrumented as the agent does at production rates: copies on, units on. */
final class CopiedFixtures {
  private CopiedFixtures() {}

  /**
   * A fixture class instrumented into a registry of its own and loaded, with the counters it
   * records into.
   */
  record Installed(SiteRegistry registry, ChunkedRunCounts counts, byte[] bytes, Class<?> type) {}

  /** Instruments and loads {@code c}, and makes its counters the process run. */
  static Installed install(Class<?> c) throws Exception {
    return install(c, false);
  }

  /**
   * As {@link #install(Class)}; with {@code closable}, each dispatch first tests whether the
   * entries are open, as with sampling windows.
   */
  static Installed install(Class<?> c, boolean closable) throws Exception {
    SiteRegistry registry = new SiteRegistry(10_000);
    ChunkedRunCounts counts = new ChunkedRunCounts(registry.slotCapacity());
    byte[] bytes = instrument(c, registry, true, closable);
    Class<?> type = load(c, bytes);
    Probes.setProcessRun(counts);
    return new Installed(registry, counts, bytes, type);
  }

  /**
   * Puts back what {@link #install} and the tests change in the bootstrap probes: no unit listener,
   * no process run, the default rate.
   */
  static void uninstall() {
    Units.install(null);
    Probes.setProcessRun(null);
    Probes.setSamplingRate(1e-4);
  }

  /** {@code c}'s class file rewritten with copies, units on, its sites in {@code registry}. */
  static byte[] instrument(Class<?> c, SiteRegistry registry) throws Exception {
    return instrument(c, registry, true, false);
  }

  /** As {@link #instrument(Class, SiteRegistry)}; without copies, probes go inline. */
  static byte[] instrument(Class<?> c, SiteRegistry registry, boolean copies) throws Exception {
    return instrument(c, registry, copies, false);
  }

  private static byte[] instrument(
      Class<?> c, SiteRegistry registry, boolean copies, boolean closable) throws Exception {
    byte[] original;
    try (InputStream in = c.getResourceAsStream(c.getSimpleName() + ".class")) {
      original = in.readAllBytes();
    }
    return ClassInstrumenter.builder(registry, ProbeSet.DEFAULT, new InstrumentationCounters())
        .methods(new MethodRegistry())
        .units(true, List.of())
        .copies(copies)
        .closableEntries(closable)
        .build()
        .instrument(original);
  }

  /** {@code c} defined from {@code bytes} in a loader of its own, initialised (so verified). */
  static Class<?> load(Class<?> c, byte[] bytes) throws Exception {
    return Class.forName(c.getName(), true, new BytesLoader(c, bytes));
  }

  /** Every count of the run together. */
  static long total(ChunkedRunCounts counts) {
    long sum = 0;
    for (int slot = 0; slot < counts.capacity(); slot++) {
      sum += counts.get(slot);
    }
    return sum;
  }

  /** The method of that name in the class. */
  static MethodNode method(ClassNode node, String name) {
    return node.methods.stream().filter(m -> m.name.equals(name)).findFirst().orElseThrow();
  }
}
