package dev.whyslow.bench.overhead;

import dev.whyslow.bench.ClassJar;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Map;

/**
 * The jar of {@link NoopAgent}, written on demand, so that a benchmark can take {@code noop}
 * wherever it takes an agent jar: the reference that tells the JVM's cost of a {@code -javaagent}
 * from what the agent itself adds.
 */
public final class NoopAgentJar {
  /** What a benchmark's agent argument says to mean this jar. */
  public static final String NAME = "noop";

  private NoopAgentJar() {}

  /** {@code jar} as a path, or a freshly written no-op agent jar when it is {@value #NAME}. */
  public static String resolve(String jar) throws IOException {
    return NAME.equals(jar) ? write().toString() : jar;
  }

  /** Writes the jar into a temporary file, deleted when this JVM exits. */
  public static Path write() throws IOException {
    return ClassJar.write(
        "whyslow-noop-agent-",
        NoopAgent.class,
        Map.of(
            "Premain-Class", NoopAgent.class.getName(), "Agent-Class", NoopAgent.class.getName()));
  }
}
