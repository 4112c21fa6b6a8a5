package dev.whyslow.agent.it;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Properties;
import java.util.Set;

/**
 * The JDKs the integration tests run on: the one under test ({@code it.java.home}, else this JVM's)
 * and every other JDK 25 or newer installed next to it (found by scanning the parent directory of
 * {@code java.home} for directories with {@code bin/java} and a {@code release} file).
 */
final class Jdks {
  /** One JDK: its home and major version. */
  record Jdk(Path home, int major) {
    Path java() {
      return home.resolve("bin").resolve("java");
    }

    @Override
    public String toString() {
      return "JDK " + major + " (" + home + ")";
    }
  }

  private Jdks() {}

  static List<Jdk> all() {
    Path current = Path.of(System.getProperty("it.java.home", System.getProperty("java.home")));
    Set<Path> seen = new LinkedHashSet<>();
    List<Jdk> out = new ArrayList<>();
    Jdk first = describe(current);
    out.add(first != null ? first : new Jdk(current, Runtime.version().feature()));
    seen.add(canonical(current));
    Path parent = Path.of(System.getProperty("java.home")).toAbsolutePath().getParent();
    if (parent != null) {
      try (DirectoryStream<Path> dirs = Files.newDirectoryStream(parent)) {
        for (Path dir : dirs) {
          Jdk jdk = describe(dir);
          if (jdk != null && jdk.major() >= 25 && seen.add(canonical(dir))) {
            out.add(jdk);
          }
        }
      } catch (IOException e) {
        // only the current JDK then
      }
    }
    return out;
  }

  /** The JDK in {@code home}, or {@code null} if it has no {@code bin/java} or release file. */
  private static Jdk describe(Path home) {
    Path release = home.resolve("release");
    if (!Files.isExecutable(home.resolve("bin").resolve("java")) || !Files.isRegularFile(release)) {
      return null;
    }
    Properties props = new Properties();
    try (InputStream in = Files.newInputStream(release)) {
      props.load(in);
    } catch (IOException e) {
      return null;
    }
    String version = props.getProperty("JAVA_VERSION", "").replace("\"", "");
    String major = version.startsWith("1.") ? version.substring(2) : version;
    int end = 0;
    while (end < major.length() && Character.isDigit(major.charAt(end))) {
      end++;
    }
    if (end == 0) {
      return null;
    }
    return new Jdk(home, Integer.parseInt(major.substring(0, end)));
  }

  private static Path canonical(Path p) {
    try {
      return p.toRealPath();
    } catch (IOException e) {
      return p.toAbsolutePath().normalize();
    }
  }
}
