package dev.whyslow.bench;

/**
 * The JVM option that attaches an agent jar, in the form {@code -Dbench.attach} names: {@code
 * javaagent} (the default, {@code -javaagent:<jar>=<args>}) or {@code agentlib} ({@code
 * -agentlib:instrument=<jar>=<args>}, the same JVMTI agent the JVM loads for {@code -javaagent},
 * without the {@code jdk.module.addmods=java.instrument} that {@code -javaagent} adds and that
 * makes the JVM build its module graph instead of mapping it from the CDS archive; README,
 * "Attaching without rebuilding the module graph").
 */
public final class AgentOption {
  private AgentOption() {}

  /** The option for {@code jar} with {@code args} (empty for none), in the configured form. */
  public static String of(Object jar, String args) {
    String suffix = args == null || args.isEmpty() ? "" : "=" + args;
    return prefix() + jar + suffix;
  }

  private static String prefix() {
    String form = System.getProperty("bench.attach", "javaagent");
    switch (form) {
      case "javaagent":
        return "-javaagent:";
      case "agentlib":
        return "-agentlib:instrument=";
      default:
        throw new IllegalArgumentException(
            "-Dbench.attach=" + form + " is not an attach form: use javaagent or agentlib");
    }
  }
}
