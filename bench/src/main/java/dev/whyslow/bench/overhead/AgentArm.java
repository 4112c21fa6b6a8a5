package dev.whyslow.bench.overhead;

import java.util.List;

/**
 * One arm of {@link AgentArmsBenchmark}: a name and the JVM options its runs get, from {@code
 * name=options} with the options separated by spaces (the {@code -javaagent} option among them).
 */
record AgentArm(String name, List<String> jvmOptions) {
  /** The arm every round has: the workload without the agent, which the others are compared to. */
  static final String WITHOUT = "without";

  static AgentArm parse(String spec) {
    int eq = spec.indexOf('=');
    if (eq <= 0) {
      throw new IllegalArgumentException(
          "an arm is name=JVM options, as asis=-javaagent:agent.jar=include=com.example; got '"
              + spec
              + "'");
    }
    String name = spec.substring(0, eq);
    if (!name.matches("[A-Za-z0-9_.-]+") || name.equals(WITHOUT)) {
      throw new IllegalArgumentException(
          "an arm's name is letters, digits, '_', '.' or '-', and not '"
              + WITHOUT
              + "' (the run without the agent, always there); got '"
              + name
              + "'");
    }
    String options = spec.substring(eq + 1).strip();
    return new AgentArm(name, options.isEmpty() ? List.of() : List.of(options.split("\\s+")));
  }
}
