package dev.whyslow.bench;

import java.nio.file.Files;
import java.nio.file.Path;

/** The jars a benchmark is given, checked before it starts anything. */
public final class BuiltJars {
  private BuiltJars() {}

  /** Exits with status 2, saying how to build them, unless every one of {@code jars} is a file. */
  public static void require(Path... jars) {
    for (Path p : jars) {
      if (!Files.isRegularFile(p)) {
        System.err.println(p + " does not exist: build first with mvn -DskipTests package");
        System.exit(2);
      }
    }
  }
}
