package dev.whyslow.agent.core;

import java.util.List;

/**
 * The JVM option that lets the JIT compile the agent's copies as soon as it compiles other code. A
 * copy runs one invocation in {@code 1 / sampling.invocation.share} (20 by default), so it reaches
 * C2's invocation thresholds 20 times later than its method and runs for a long time in C1's
 * profiled code, which in a service shows at the p99 (bench/LATENCY.md). The agent cannot set a JIT
 * option for itself; it says, once at start and at {@code log=info}, when it is missing.
 */
final class CopyCompilation {
  /** Scales the compile thresholds of every method whose name holds "whyslow" (the copies). */
  static final String OPTION = "-XX:CompileCommand=CompileThresholdScaling,*::*whyslow*,0.05";

  private CopyCompilation() {}

  /** The advice to log, or {@code null} when the JVM's arguments already scale some threshold. */
  static String adviceFor(List<String> jvmArguments) {
    for (String argument : jvmArguments) {
      if (argument.contains("CompileThresholdScaling")) {
        return null;
      }
    }
    return "sampled invocations run copies of instrumented methods that the JIT compiles late;"
        + " for the least added latency start the JVM with "
        + OPTION
        + " (README, \"Sampled invocations\")";
  }
}
