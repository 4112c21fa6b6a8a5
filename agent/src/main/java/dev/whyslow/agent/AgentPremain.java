package dev.whyslow.agent;

import dev.whyslow.agent.config.AgentConfigLoader;
import dev.whyslow.agent.core.AgentInstaller;
import dev.whyslow.agent.core.AgentLog;
import java.lang.instrument.Instrumentation;

/**
 * The agent's entry point. It puts the probe classes in the bootstrap class loader (so instrumented
 * code in every class loader, {@code java.*} included, can call them; {@link BootstrapClasses}) and
 * hands over to the core. It never throws: whatever goes wrong, the service starts without the
 * agent and one line on stderr says why.
 */
public final class AgentPremain {
  private AgentPremain() {}

  public static void premain(String agentArgs, Instrumentation instrumentation) {
    start(agentArgs, instrumentation);
  }

  public static void agentmain(String agentArgs, Instrumentation instrumentation) {
    start(agentArgs, instrumentation);
  }

  private static void start(String agentArgs, Instrumentation instrumentation) {
    try {
      // Configuration first: a disabled agent must not even touch the bootstrap loader.
      AgentConfigLoader.Result config = AgentConfigLoader.load(agentArgs);
      if (!config.config().enabled()) {
        reportDisabled(config);
        return;
      }
      String bootstrap = BootstrapClasses.install(instrumentation);
      // Only now may core classes that link against the bootstrap classes load.
      AgentInstaller.install(config, instrumentation);
      if (!bootstrap.equals(BootstrapClasses.DEFINED)) {
        new AgentLog(config.config().log())
            .info("probe classes in the bootstrap loader: " + bootstrap);
      }
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
}
