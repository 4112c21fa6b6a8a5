package dev.whyslow.agent;

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
 * The jar of probe classes inside the agent jar, and the fallback way of giving them to the
 * bootstrap loader ({@link BootstrapClasses}): a private copy in the temporary directory, appended
 * to the boot class path.
 */
final class BootstrapJar {
  private BootstrapJar() {}

  /** The bootstrap jar's bytes, from the agent jar. */
  static InputStream open() {
    InputStream in = BootstrapJar.class.getClassLoader().getResourceAsStream(BootstrapClasses.JAR);
    if (in == null) {
      throw new IllegalStateException(
          BootstrapClasses.JAR
              + " is missing from the agent jar; rebuild the agent with mvn package");
    }
    return in;
  }

  /** Copies the bootstrap jar to a private file and appends it to the boot class path. */
  static void append(Instrumentation instrumentation) throws IOException {
    Path jar = newPrivateFile(Path.of(System.getProperty("java.io.tmpdir")));
    jar.toFile().deleteOnExit();
    try (InputStream in = open()) {
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
