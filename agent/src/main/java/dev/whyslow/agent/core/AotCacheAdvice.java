package dev.whyslow.agent.core;

import java.util.List;

/**
 * A JDK 25 AOT cache ({@code -XX:AOTCache}) and {@code -javaagent} do not go together: {@code
 * -javaagent} adds the module {@code java.instrument} to the boot layer, and the JVM then refuses a
 * cache made without it, printing an error at start. Attached as {@code -agentlib:instrument} the
 * same agent keeps the cache (README, "Attaching without rebuilding the module graph"); the agent
 * says so, once at start and at {@code log=info}, when it sees both options.
 */
final class AotCacheAdvice {
  private AotCacheAdvice() {}

  /** The advice to log, or {@code null} when the JVM's arguments do not combine the two. */
  static String adviceFor(List<String> jvmArguments) {
    boolean cache = false;
    boolean javaagent = false;
    for (String argument : jvmArguments) {
      cache |= argument.startsWith("-XX:AOTCache=");
      javaagent |= argument.startsWith("-javaagent:");
    }
    if (!cache || !javaagent) {
      return null;
    }
    return "the JVM does not use its AOT cache (-XX:AOTCache) with an agent attached by -javaagent;"
        + " attach this one as -agentlib:instrument=<agent.jar>=<arguments> to keep the cache"
        + " (README, \"Attaching without rebuilding the module graph\")";
  }
}
