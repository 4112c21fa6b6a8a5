package dev.whyslow.agent.instrument;

import java.util.List;

/**
 * Which classes the agent instruments: those matching an include prefix and no exclude prefix,
 * never the JVM's own core ({@code java.lang}, {@code jdk.internal}, {@code sun}, {@code jdk.jfr}),
 * the agent itself or Byte Buddy. A prefix matches a package and its sub-packages, or a class and
 * its nested classes: {@code com.acme} matches {@code com.acme.Foo} and {@code com.acme.web.Bar}
 * but not {@code com.acmex.Baz}.
 */
public final class Scope {
  /** Never instrumented, whatever the configuration says. */
  public static final List<String> ALWAYS_EXCLUDED =
      List.of(
          "java.lang",
          "jdk.internal",
          "sun",
          "jdk.jfr",
          "net.bytebuddy",
          "dev.whyslow.agent",
          "dev.whyslow.protocol",
          "dev.whyslow.daemon",
          "dev.whyslow.storage");

  private final List<String> includes;
  private final List<String> excludes;

  /**
   * @param includes dotted package or class prefixes; empty means nothing is instrumented
   * @param excludes dotted prefixes removed from the includes
   */
  public Scope(List<String> includes, List<String> excludes) {
    this.includes = List.copyOf(includes);
    this.excludes = List.copyOf(excludes);
  }

  /**
   * @param className binary name with dots or internal name with slashes
   */
  public boolean includes(String className) {
    if (className == null) {
      return false;
    }
    String name = className.replace('/', '.');
    return anyMatches(includes, name)
        && !anyMatches(excludes, name)
        && !anyMatches(ALWAYS_EXCLUDED, name);
  }

  /** Whether the class is one the agent never changes, whatever the configuration. */
  public static boolean neverInstrumented(String className) {
    return className == null || anyMatches(ALWAYS_EXCLUDED, className.replace('/', '.'));
  }

  /** Whether nothing at all can be instrumented. */
  public boolean isEmpty() {
    return includes.isEmpty();
  }

  public List<String> includePrefixes() {
    return includes;
  }

  /** Whether {@code prefix} names {@code name}, its package or an enclosing package or class. */
  static boolean matches(String prefix, String name) {
    if (!name.startsWith(prefix)) {
      return false;
    }
    if (name.length() == prefix.length() || prefix.endsWith(".")) {
      return true;
    }
    char next = name.charAt(prefix.length());
    return next == '.' || next == '$';
  }

  private static boolean anyMatches(List<String> prefixes, String name) {
    for (String prefix : prefixes) {
      if (matches(prefix, name)) {
        return true;
      }
    }
    return false;
  }
}
