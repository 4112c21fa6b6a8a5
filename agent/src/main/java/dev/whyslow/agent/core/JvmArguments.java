package dev.whyslow.agent.core;

import java.lang.management.ManagementFactory;
import java.util.List;

/**
 * The JVM's own options ({@code -X...}, {@code -javaagent:...}, those from {@code
 * JAVA_TOOL_OPTIONS}), for advice on how the service is started. Reading them starts the platform's
 * management beans, some 30 ms on the service's start-up path, so the agent reads them only for
 * lines it will print.
 */
final class JvmArguments {
  private JvmArguments() {}

  /** This JVM's options, or none when they cannot be read (a JVM without management). */
  static List<String> ofThisJvm() {
    try {
      return ManagementFactory.getRuntimeMXBean().getInputArguments();
    } catch (RuntimeException | LinkageError e) {
      return List.of();
    }
  }
}
