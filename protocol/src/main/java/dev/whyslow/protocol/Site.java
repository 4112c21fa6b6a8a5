package dev.whyslow.protocol;

import java.util.Objects;

/**
 * A probe site: where in the code a predicate family is evaluated. The {@code key} is stable across
 * JVMs and restarts of the same code ({@link SiteKeys}); everything else is metadata for reports.
 *
 * @param key stable 64-bit site key
 * @param className binary class name with dots, e.g. {@code java.util.ArrayList}
 * @param methodName method name, {@code <init>} for constructors
 * @param descriptor JVM method descriptor
 * @param sourceFile source file name from the class file, or {@code ""} if unknown
 * @param line source line of the site, or {@code -1} if unknown
 * @param kind what the site observes
 * @param loopId within the method, the loop this site belongs to (innermost), or {@code -1}
 * @param detail kind-specific words for reports (e.g. the compared locals of a scalar pair), or
 *     {@code ""}
 */
public record Site(
    long key,
    String className,
    String methodName,
    String descriptor,
    String sourceFile,
    int line,
    SiteKind kind,
    int loopId,
    String detail) {

  public Site {
    Objects.requireNonNull(className, "className");
    Objects.requireNonNull(methodName, "methodName");
    Objects.requireNonNull(descriptor, "descriptor");
    Objects.requireNonNull(sourceFile, "sourceFile");
    Objects.requireNonNull(kind, "kind");
    Objects.requireNonNull(detail, "detail");
  }

  /** {@code ArrayList.indexOf (ArrayList.java:312)} style location for people. */
  public String location() {
    String simple = className.substring(className.lastIndexOf('.') + 1);
    String where = sourceFile.isEmpty() ? "Unknown Source" : sourceFile;
    return simple + "." + methodName + " (" + where + (line >= 0 ? ":" + line : "") + ")";
  }
}
