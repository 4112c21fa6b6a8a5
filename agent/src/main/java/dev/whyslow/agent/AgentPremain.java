package dev.whyslow.agent;

import dev.whyslow.agent.config.AgentConfigLoader;
import dev.whyslow.agent.core.AgentInstaller;
import dev.whyslow.agent.core.AgentLog;
import java.io.File;
import java.io.InputStream;
import java.lang.instrument.Instrumentation;
import java.nio.file.Files;
import java.nio.file.StandardCopyOption;
import java.util.jar.JarFile;

/**
 * The agent's entry point. It puts the probe classes on the bootstrap class path (so instrumented
 * code in every class loader, {@code java.*} included, can call them) and hands over to the core.
 * It never throws: whatever goes wrong, the service starts without the agent and one line on stderr
 * says why.
 */
public final class AgentPremain {
  static final String BOOTSTRAP_JAR = "whyslow-bootstrap.jar";

  private AgentPremain() {}

  public static void premain(String agentArgs, Instrumentation instrumentation) {
    start(agentArgs, instrumentation);
  }

  public static void agentmain(String agentArgs, Instrumentation instrumentation) {
    start(agentArgs, instrumentation);
  }

  private static void start(String agentArgs, Instrumentation instrumentation) {
    try {
      // Configuration first: a disabled agent must not even touch the bootstrap class path.
      AgentConfigLoader.Result config = AgentConfigLoader.load(agentArgs);
      if (!config.config().enabled()) {
        reportDisabled(config);
        return;
      }
      appendBootstrapJar(instrumentation);
      // Only now may core classes that link against the bootstrap classes load.
      AgentInstaller.install(config, instrumentation);
    } catch (Throwable t) {
      try {
        System.err.println(
            "[whyslow] the agent could not start and is not active; the application runs without"
                + " it. Cause: "
                + t);
      } catch (Throwable ignored) {
        // nothing left to report with
      }
    }
  }

  /** Says why nothing is installed; must not touch any class that links to bootstrap classes. */
  private static void reportDisabled(AgentConfigLoader.Result config) {
    AgentLog log = new AgentLog(config.config().log());
    for (String problem : config.problems()) {
      log.warn(problem);
    }
    log.info("disabled by configuration (enabled=false): nothing is instrumented");
  }

  private static void appendBootstrapJar(Instrumentation instrumentation) throws Exception {
    File jar = File.createTempFile("whyslow-bootstrap-", ".jar");
    jar.deleteOnExit();
    try (InputStream in = AgentPremain.class.getClassLoader().getResourceAsStream(BOOTSTRAP_JAR)) {
      if (in == null) {
        throw new IllegalStateException(
            BOOTSTRAP_JAR + " is missing from the agent jar; rebuild the agent with mvn package");
      }
      Files.copy(in, jar.toPath(), StandardCopyOption.REPLACE_EXISTING);
    }
    instrumentation.appendToBootstrapClassLoaderSearch(new JarFile(jar));
  }
}
