package dev.whyslow.bench;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.jar.Attributes;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;

/**
 * A jar of one class from this class path, written on demand into a temporary file that is deleted
 * when this JVM exits: a small jar for a child JVM, which would spend time opening the bench jar's
 * thousands of entries.
 */
public final class ClassJar {
  private ClassJar() {}

  /**
   * Writes {@code type}'s class file into a new jar named from {@code prefix}, its manifest holding
   * {@code mainAttributes} besides the version.
   */
  public static Path write(String prefix, Class<?> type, Map<String, String> mainAttributes)
      throws IOException {
    Path jar = Files.createTempFile(prefix, ".jar");
    jar.toFile().deleteOnExit();
    Manifest manifest = new Manifest();
    Attributes main = manifest.getMainAttributes();
    main.put(Attributes.Name.MANIFEST_VERSION, "1.0");
    mainAttributes.forEach((name, value) -> main.put(new Attributes.Name(name), value));
    String entry = type.getName().replace('.', '/') + ".class";
    try (OutputStream file = Files.newOutputStream(jar);
        JarOutputStream out = new JarOutputStream(file, manifest);
        InputStream in = type.getClassLoader().getResourceAsStream(entry)) {
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
