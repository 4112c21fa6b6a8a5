package dev.whyslow.bench.overhead;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.jar.Attributes;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;

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
    Path jar = Files.createTempFile("whyslow-noop-agent-", ".jar");
    jar.toFile().deleteOnExit();
    Manifest manifest = new Manifest();
    Attributes main = manifest.getMainAttributes();
    main.put(Attributes.Name.MANIFEST_VERSION, "1.0");
    main.put(new Attributes.Name("Premain-Class"), NoopAgent.class.getName());
    main.put(new Attributes.Name("Agent-Class"), NoopAgent.class.getName());
    String entry = NoopAgent.class.getName().replace('.', '/') + ".class";
    try (OutputStream file = Files.newOutputStream(jar);
        JarOutputStream out = new JarOutputStream(file, manifest);
        InputStream in = NoopAgent.class.getClassLoader().getResourceAsStream(entry)) {
      if (in == null) {
        throw new IOException(entry + " is not on the class path");
      }
      out.putNextEntry(new JarEntry(entry));
      in.transferTo(out);
      out.closeEntry();
    }
    return jar;
  }
}
