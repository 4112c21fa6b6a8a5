package dev.whyslow.agent;

import dev.whyslow.agent.config.AgentConfigLoader;
import dev.whyslow.agent.core.AgentInstaller;
import dev.whyslow.agent.core.AgentLog;
import java.io.IOException;
import java.io.InputStream;
import java.lang.instrument.Instrumentation;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
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
    Path jar = newPrivateFile(Path.of(System.getProperty("java.io.tmpdir")));
    jar.toFile().deleteOnExit();
    try (InputStream in = AgentPremain.class.getClassLoader().getResourceAsStream(BOOTSTRAP_JAR)) {
      if (in == null) {
        throw new IllegalStateException(
            BOOTSTRAP_JAR + " is missing from the agent jar; rebuild the agent with mvn package");
      }
      Files.copy(in, jar, StandardCopyOption.REPLACE_EXISTING);
    }
    instrumentation.appendToBootstrapClassLoaderSearch(new JarFile(jar.toFile()));
  }

  /**
   * A new file in {@code dir} that this call created and only its user can read. Named from the
   * clock and created exclusively (an existing file or a planted link fails it) rather than by
   * {@code File.createTempFile}, whose random names seed a {@code SecureRandom}: some 20 ms of the
   * service's start-up. Where the name is taken, or the file system has no POSIX permissions, it
   * falls back to {@code Files.createTempFile}.
   */
  static Path newPrivateFile(Path dir) throws IOException {
    String name =
        "whyslow-bootstrap-"
            + Long.toHexString(System.nanoTime())
            + "-"
            + Integer.toHexString(System.identityHashCode(new Object()))
            + ".jar";
    try {
      return Files.createFile(
          dir.resolve(name),
          PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
    } catch (FileAlreadyExistsException | UnsupportedOperationException e) {
      return Files.createTempFile(dir, "whyslow-bootstrap-", ".jar");
    }
  }
}
