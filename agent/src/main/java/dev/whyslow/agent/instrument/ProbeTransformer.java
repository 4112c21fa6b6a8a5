package dev.whyslow.agent.instrument;

import dev.whyslow.agent.bootstrap.Probes;
import java.lang.instrument.ClassFileTransformer;
import java.lang.instrument.Instrumentation;
import java.security.ProtectionDomain;
import java.util.Collections;
import java.util.Map;
import java.util.Set;
import java.util.WeakHashMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.BiConsumer;

/**
 * The agent's class file transformer: instruments classes in {@link Scope} as they load or are
 * retransformed, and wraps unit entry points in any other class (libraries, the JDK's executor). It
 * never throws into the class loader: a failure leaves the class as it was and is counted and
 * reported once. Classes loaded by its own work are left alone to avoid class-circularity errors.
 */
public final class ProbeTransformer implements ClassFileTransformer {
  private final Scope scope;
  private final ClassInstrumenter instrumenter;
  private final InstrumentationCounters counters;
  private final Instrumentation instrumentation;
  private final BiConsumer<String, Throwable> onFailure;
  private final Set<Module> modulesReadingProbes = ConcurrentHashMap.newKeySet();
  private final ThreadLocal<Boolean> transforming = new ThreadLocal<>();

  /**
   * The classes in scope this transformer instrumented, by loader (weakly: a loader that goes away
   * takes its names with it), each with whether it was as it loaded. A later retransformation of
   * one instrumented at load, ours or another agent's, must give it the same methods again: the JVM
   * refuses one that adds or removes any, and a class instrumented at load may have gained copies.
   * The bootstrap loader's are under {@link #BOOTSTRAP}.
   */
  private final Map<Object, Map<String, Boolean>> instrumented =
      Collections.synchronizedMap(new WeakHashMap<>());

  private static final Object BOOTSTRAP = new Object();

  /**
   * @param instrumentation used to let named modules (e.g. {@code java.base}) read the probes'
   *     module; may be {@code null} in tests that only load classes from the unnamed module
   * @param onFailure told about every class that failed (class name, error)
   */
  public ProbeTransformer(
      Scope scope,
      ClassInstrumenter instrumenter,
      InstrumentationCounters counters,
      Instrumentation instrumentation,
      BiConsumer<String, Throwable> onFailure) {
    this.scope = scope;
    this.instrumenter = instrumenter;
    this.counters = counters;
    this.instrumentation = instrumentation;
    this.onFailure = onFailure;
  }

  @Override
  public byte[] transform(
      Module module,
      ClassLoader loader,
      String className,
      Class<?> classBeingRedefined,
      ProtectionDomain protectionDomain,
      byte[] classfileBuffer) {
    if (className == null) {
      return null;
    }
    boolean inScope = scope.includes(className);
    if (!inScope
        && (!instrumenter.mightWrapUnits(className, classfileBuffer)
            || Scope.neverInstrumented(className))) {
      return null;
    }
    if (transforming.get() != null) {
      counters.nestedLoadsSkipped.incrementAndGet();
      return null;
    }
    transforming.set(Boolean.TRUE);
    boolean wasAgent = Probes.enterAgentWork();
    long start = System.nanoTime();
    try {
      byte[] out;
      if (!inScope) {
        out = instrumenter.wrapUnitsOnly(classfileBuffer);
      } else if (classBeingRedefined == null) {
        out = instrumenter.instrument(classfileBuffer, true);
        if (out != null) {
          namesInstrumented(loader).put(className, Boolean.TRUE);
        }
      } else {
        Map<String, Boolean> names = namesInstrumented(loader);
        Boolean atLoad = names.get(className);
        out = instrumenter.instrument(classfileBuffer, Boolean.TRUE.equals(atLoad));
        if (out != null && atLoad != null) {
          // Counted when it was first instrumented: a class is one class however often it is.
          counters.classesInstrumented.decrementAndGet();
          counters.classesReinstrumented.incrementAndGet();
        } else if (out != null) {
          names.put(className, Boolean.FALSE);
        }
      }
      if (out != null) {
        ensureReadsProbes(module);
      }
      return out;
    } catch (Throwable t) {
      counters.classesFailed.incrementAndGet();
      try {
        onFailure.accept(className.replace('/', '.'), t);
      } catch (Throwable ignored) {
        // reporting must not fail the class load either
      }
      return null;
    } finally {
      counters.transformNanos.addAndGet(System.nanoTime() - start);
      Probes.exitAgentWork(wasAgent);
      transforming.remove();
    }
  }

  private Map<String, Boolean> namesInstrumented(ClassLoader loader) {
    Object key = loader == null ? BOOTSTRAP : loader;
    // No lambda: a class spun for one while transforming would load inside the transformer.
    synchronized (instrumented) {
      Map<String, Boolean> names = instrumented.get(key);
      if (names == null) {
        names = new ConcurrentHashMap<>();
        instrumented.put(key, names);
      }
      return names;
    }
  }

  /**
   * Instrumented code in a named module (e.g. {@code java.util} in {@code java.base}) must read the
   * probes' module, the unnamed module of the bootstrap loader, or the probe calls fail.
   */
  private void ensureReadsProbes(Module module) {
    Module probes = Probes.class.getModule();
    if (module == null
        || !module.isNamed()
        || instrumentation == null
        || modulesReadingProbes.contains(module)) {
      return;
    }
    if (!module.canRead(probes)) {
      instrumentation.redefineModule(
          module, Set.of(probes), Map.of(), Map.of(), Set.of(), Map.of());
    }
    modulesReadingProbes.add(module);
  }
}
