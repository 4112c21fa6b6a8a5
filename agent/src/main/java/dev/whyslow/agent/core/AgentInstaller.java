package dev.whyslow.agent.core;

import dev.whyslow.agent.bootstrap.AgentErrors;
import dev.whyslow.agent.bootstrap.Probes;
import dev.whyslow.agent.config.AgentConfig;
import dev.whyslow.agent.config.AgentConfigLoader;
import dev.whyslow.agent.instrument.Scope;
import java.lang.instrument.Instrumentation;
import java.util.ArrayList;
import java.util.List;

/**
 * Installs the agent once premain has put the bootstrap classes in place: reads the configuration,
 * primes the probes, installs the transformer, instruments classes in scope that are already loaded
 * (e.g. {@code java.util}), and starts the background thread and the exit hook.
 */
public final class AgentInstaller {
  private static final int RETRANSFORM_BATCH = 50;

  private AgentInstaller() {}

  /**
   * Installs the agent; returns {@code null} when the configuration disables it. The bootstrap
   * classes must already be in the bootstrap class loader (or, in tests, on the class path).
   */
  public static AgentRuntime install(
      AgentConfigLoader.Result loaded, Instrumentation instrumentation) {
    long start = System.nanoTime();
    AgentConfig config = loaded.config();
    if (!config.enabled()) {
      return null;
    }
    AgentLog log = new AgentLog(config.log());
    if (AgentRuntime.current() != null) {
      // e.g. -javaagent given twice, or once plus JAVA_TOOL_OPTIONS: probes must not stack up.
      log.warn("the agent is already installed in this JVM; ignoring the second -javaagent");
      return AgentRuntime.current();
    }
    for (String problem : loaded.problems()) {
      log.warn(problem);
    }
    warnAboutExcludedIncludes(config, log);
    config.samplingSeed().ifPresent(Probes::fixSamplerSeed); // before the first thread state
    // Initialise every bootstrap class and link the sampled path now, before any class calls it:
    // a probe first reached from inside a class the JVM is initialising must find them ready.
    Probes.warmUp();
    boolean wasAgent = Probes.enterAgentWork();
    try {
      AgentRuntime runtime = new AgentRuntime(config, log, instrumentation);
      Probes.setProcessRun(config.processRun() ? runtime.processCounts() : null);
      WarmUp.transformOnce(config);
      runtime.startUnits();
      instrumentation.addTransformer(runtime.transformer(), true);
      retransformLoaded(instrumentation, runtime.scope(), log);
      if (config.units().enabled()) {
        retransformExecutor(instrumentation, log);
      }
      AgentRuntime.setCurrent(runtime);
      runtime.startBackground();
      log.info(
          "installed in "
              + (System.nanoTime() - start) / 1_000_000
              + " ms ("
              + runtime.counters().classesInstrumented()
              + " classes instrumented so far): "
              + config);
      if (log.isInfo()) {
        adviseOnJvmOptions(config, log);
      }
      return runtime;
    } finally {
      Probes.exitAgentWork(wasAgent);
    }
  }

  /** Says which JVM options the service would be better started with, if any. */
  private static void adviseOnJvmOptions(AgentConfig config, AgentLog log) {
    List<String> jvmArguments = JvmArguments.ofThisJvm();
    List<String> advice = new ArrayList<>();
    if (config.invocations().enabled()) {
      advice.add(CopyCompilation.adviceFor(jvmArguments));
    }
    advice.add(AotCacheAdvice.adviceFor(jvmArguments));
    for (String line : advice) {
      if (line != null) {
        log.info(line);
      }
    }
  }

  /** Instruments classes in scope that were loaded before the transformer was installed. */
  static void retransformLoaded(Instrumentation instrumentation, Scope scope, AgentLog log) {
    if (scope.isEmpty()) {
      return;
    }
    List<Class<?>> todo = new ArrayList<>();
    for (Class<?> c : instrumentation.getAllLoadedClasses()) {
      if (!c.isArray()
          && !c.isPrimitive()
          && scope.includes(c.getName())
          && instrumentation.isModifiableClass(c)) {
        todo.add(c);
      }
    }
    for (int from = 0; from < todo.size(); from += RETRANSFORM_BATCH) {
      List<Class<?>> batch = todo.subList(from, Math.min(todo.size(), from + RETRANSFORM_BATCH));
      try {
        instrumentation.retransformClasses(batch.toArray(new Class<?>[0]));
      } catch (Throwable batchFailure) {
        // One bad class fails the whole batch; retry one by one so the others still get probes.
        for (Class<?> c : batch) {
          try {
            instrumentation.retransformClasses(c);
          } catch (Throwable t) {
            AgentErrors.report("retransforming " + c.getName(), t);
            log.debug("could not retransform " + c.getName() + ": " + t);
          }
        }
      }
    }
    log.debug("retransformed " + todo.size() + " already loaded classes in scope");
  }

  /**
   * {@code ThreadPoolExecutor} is usually loaded before the agent; its {@code runWorker} is where
   * executor tasks become units.
   */
  private static void retransformExecutor(Instrumentation instrumentation, AgentLog log) {
    try {
      instrumentation.retransformClasses(java.util.concurrent.ThreadPoolExecutor.class);
    } catch (Throwable t) {
      AgentErrors.report("retransforming ThreadPoolExecutor", t);
      log.warn(
          "could not wrap ThreadPoolExecutor ("
              + t
              + "); executor tasks are not timed as units, other units are");
    }
  }

  private static void warnAboutExcludedIncludes(AgentConfig config, AgentLog log) {
    for (String prefix : config.include()) {
      for (String never : Scope.ALWAYS_EXCLUDED) {
        if (prefix.equals(never) || prefix.startsWith(never + ".")) {
          log.warn(
              "include="
                  + prefix
                  + " is never instrumented: the agent does not change "
                  + String.join(", ", Scope.ALWAYS_EXCLUDED)
                  + "; remove it from include");
        }
      }
    }
  }
}
