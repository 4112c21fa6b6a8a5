package dev.whyslow.bench;

import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The agent and examples jars a benchmark takes as its first two arguments, checked before it
 * starts anything.
 */
public record BuiltJars(Path agent, Path examples) {
  /**
   * The jars named by {@code args[0]} and {@code args[1]}; exits with status 2 and {@code usage}
   * when they are missing, or saying how to build them when they are not files.
   */
  public static BuiltJars fromArgs(String[] args, String usage) {
    if (args.length < 2) {
      System.err.println(usage);
      System.exit(2);
    }
    BuiltJars jars = new BuiltJars(Path.of(args[0]), Path.of(args[1]));
    for (Path p : new Path[] {jars.agent, jars.examples}) {
      if (!Files.isRegularFile(p)) {
        System.err.println(p + " does not exist: build first with mvn -DskipTests package");
        System.exit(2);
      }
    }
    return jars;
  }
}
