package dev.whyslow.examples.eval;

import dev.whyslow.protocol.Site;
import dev.whyslow.protocol.SiteKind;
import java.util.EnumSet;
import java.util.Objects;
import java.util.Set;

/**
 * One predicate that expresses a workload's root cause, as its source marks it: a site kind and the
 * predicate's name as the agent words it ({@code taken}, {@code not taken}, {@code null}, {@code >
 * 0}, ...), at a line of the workload's source file or, for library code whose line numbers differ
 * between JDK builds, anywhere in a named method. A scalar pair also names its pair as the agent's
 * site detail does, e.g. {@code new timestamp vs watermark}.
 *
 * @param kind {@code branch}, {@code loop-branch}, {@code return} (any return kind) or {@code
 *     scalar-pair}
 * @param predicate the predicate's name, e.g. {@code not taken}
 * @param detail the site detail the site must have, or {@code ""} for any
 * @param className the class, or for a source marker the top-level class whose nested classes also
 *     match
 * @param methodName the method for a library marker, {@code ""} for a source marker
 * @param sourceFile the source file for a source marker, {@code ""} for a library marker
 * @param line the line for a source marker, -1 for a library marker
 */
public record RootCause(
    String kind,
    String predicate,
    String detail,
    String className,
    String methodName,
    String sourceFile,
    int line) {

  /** The spellings a marker may use for its kind. */
  public static final Set<String> KINDS = Set.of("branch", "loop-branch", "return", "scalar-pair");

  public RootCause {
    Objects.requireNonNull(kind, "kind");
    Objects.requireNonNull(predicate, "predicate");
    Objects.requireNonNull(detail, "detail");
    Objects.requireNonNull(className, "className");
    Objects.requireNonNull(methodName, "methodName");
    Objects.requireNonNull(sourceFile, "sourceFile");
    if (!KINDS.contains(kind)) {
      throw new IllegalArgumentException(
          "root cause kind must be one of " + KINDS + ", was '" + kind + "'");
    }
  }

  /** The site kinds this marker's kind covers. */
  public Set<SiteKind> siteKinds() {
    switch (kind) {
      case "branch":
        return EnumSet.of(SiteKind.BRANCH);
      case "loop-branch":
        return EnumSet.of(SiteKind.LOOP_BRANCH);
      case "scalar-pair":
        return EnumSet.of(SiteKind.SCALAR_PAIR);
      default:
        return EnumSet.of(
            SiteKind.RETURN_NUMERIC, SiteKind.RETURN_BOOLEAN, SiteKind.RETURN_REFERENCE);
    }
  }

  /** Whether {@code column} ranks predicates of this kind. */
  public boolean expressibleIn(Column column) {
    for (SiteKind siteKind : siteKinds()) {
      if (column.expresses(siteKind)) {
        return true;
      }
    }
    return false;
  }

  /** Whether predicate {@code index} of {@code site} is this root cause. */
  public boolean matches(Site site, int index) {
    if (!siteKinds().contains(site.kind())
        || !site.kind().predicateName(index).trim().equals(predicate)
        || !(detail.isEmpty() || site.detail().equals(detail))) {
      return false;
    }
    if (line < 0) {
      return site.className().equals(className) && site.methodName().equals(methodName);
    }
    return site.line() == line
        && site.sourceFile().equals(sourceFile)
        && (site.className().equals(className) || site.className().startsWith(className + "$"));
  }

  /** {@code LineStartScan.java:35 loop-branch "not taken"} or the library method. */
  public String describe() {
    String where = line < 0 ? className + "." + methodName : sourceFile + ":" + line;
    String pair = detail.isEmpty() ? "" : " (" + detail + ")";
    return where + " " + kind + " \"" + predicate + "\"" + pair;
  }
}
