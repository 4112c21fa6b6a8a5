package dev.whyslow.examples.eval;

import java.io.IOException;
import java.io.InputStream;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads a workload's root causes: the {@code // ROOT CAUSE: <kind> <predicate>} line comments of
 * its source (packaged next to its classes) and, for a cause inside library code, its {@code
 * ROOT_CAUSE_IN_LIBRARY} constant, {@code "<class>#<method> <kind> <predicate>"}. A scalar pair's
 * predicate is one operator followed by the pair as the agent's site detail words it, e.g. {@code
 * scalar-pair < new timestamp vs watermark}. Anything in parentheses at the end is a remark for
 * people.
 */
public final class RootCauseMarkers {
  static final String MARKER = "// ROOT CAUSE:";
  static final String LIBRARY_FIELD = "ROOT_CAUSE_IN_LIBRARY";
  private static final Pattern SPEC = Pattern.compile("\\s*(\\S+)\\s+([^(]+?)\\s*(\\(.*)?");

  private RootCauseMarkers() {}

  /**
   * @throws IllegalStateException when the source is not packaged, a marker is malformed, or the
   *     workload marks nothing
   */
  public static List<RootCause> of(Class<?> workload) {
    List<RootCause> causes = new ArrayList<>(fromSource(workload, source(workload)));
    libraryCause(workload).ifPresent(causes::add);
    if (causes.isEmpty()) {
      throw new IllegalStateException(
          workload.getName()
              + " marks no root cause: add a '"
              + MARKER
              + " <kind> <predicate>' comment on the predicate's line, or a "
              + LIBRARY_FIELD
              + " constant");
    }
    return causes;
  }

  /** The markers in {@code source}, the text of {@code workload}'s source file. */
  static List<RootCause> fromSource(Class<?> workload, String source) {
    String file = workload.getSimpleName() + ".java";
    List<RootCause> causes = new ArrayList<>();
    String[] lines = source.split("\n", -1);
    for (int i = 0; i < lines.length; i++) {
      int at = lines[i].indexOf(MARKER);
      if (at < 0) {
        continue;
      }
      String spec = lines[i].substring(at + MARKER.length());
      String where = file + ":" + (i + 1);
      String[] parsed = parse(spec, where);
      causes.add(
          new RootCause(parsed[0], parsed[1], parsed[2], workload.getName(), "", file, i + 1));
    }
    return causes;
  }

  static Optional<RootCause> libraryCause(Class<?> workload) {
    Field field;
    try {
      field = workload.getField(LIBRARY_FIELD);
    } catch (NoSuchFieldException e) {
      return Optional.empty();
    }
    String value;
    try {
      value = Modifier.isStatic(field.getModifiers()) ? (String) field.get(null) : null;
    } catch (IllegalAccessException | ClassCastException e) {
      value = null;
    }
    String where = workload.getName() + "." + LIBRARY_FIELD;
    if (value == null) {
      throw new IllegalStateException(where + " must be a public static String");
    }
    int space = value.indexOf(' ');
    int hash = value.indexOf('#');
    if (hash < 1 || space < hash) {
      throw new IllegalStateException(
          where
              + " must read '<class>#<method> <kind> <predicate>', e.g. 'java.util.LinkedList#node"
              + " loop-branch not taken', was '"
              + value
              + "'");
    }
    String[] parsed = parse(value.substring(space), where);
    return Optional.of(
        new RootCause(
            parsed[0],
            parsed[1],
            parsed[2],
            value.substring(0, hash),
            value.substring(hash + 1, space),
            "",
            -1));
  }

  private static String[] parse(String spec, String where) {
    Matcher m = SPEC.matcher(spec);
    if (!m.matches() || !RootCause.KINDS.contains(m.group(1))) {
      throw new IllegalStateException(
          where
              + ": root cause marker must read '<kind> <predicate> (remark)' with kind one of "
              + RootCause.KINDS
              + ", was '"
              + spec.trim()
              + "'");
    }
    String predicate = m.group(2);
    String detail = "";
    if (m.group(1).equals("scalar-pair")) {
      // One operator, then the pair: "< new timestamp vs watermark".
      int space = predicate.indexOf(' ');
      if (space > 0) {
        detail = predicate.substring(space + 1).trim();
        predicate = predicate.substring(0, space);
      }
    }
    return new String[] {m.group(1), predicate, detail};
  }

  private static String source(Class<?> workload) {
    String resource = "/" + workload.getName().replace('.', '/') + ".java";
    try (InputStream in = workload.getResourceAsStream(resource)) {
      if (in == null) {
        throw new IllegalStateException(
            "the source of "
                + workload.getName()
                + " is not on the class path as "
                + resource
                + "; the examples jar packages the workloads' sources, rebuild it with mvn package");
      }
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new IllegalStateException("cannot read " + resource + ": " + e.getMessage(), e);
    }
  }
}
