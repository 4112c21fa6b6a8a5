package dev.whyslow.bench.overhead;

import java.lang.instrument.Instrumentation;

/**
 * A {@code -javaagent} that does nothing: what a JVM pays for having an agent at all, before the
 * agent runs a line. The JVM loads {@code java.instrument}, opens the agent's jar, and boots the
 * module graph itself instead of mapping it from the CDS archive; on some hosts that alone moves
 * the JIT's view of the JDK's own code (bench/README.md). {@link NoopAgentJar} writes the jar.
 */
public final class NoopAgent {
  private NoopAgent() {}

  public static void premain(String args, Instrumentation instrumentation) {
    // nothing, on purpose
  }

  public static void agentmain(String args, Instrumentation instrumentation) {
    // nothing, on purpose
  }
}
