package dev.whyslow.examples.eval;

import java.lang.reflect.Field;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * A bug workload as the evaluation runs it: its main class (which takes {@code good|bad <seed>}),
 * the kind of bug it re-creates, the column whose model suits it (Song and Lu's Table 8 uses the
 * combination that worked without sampling), and the fix strategy its source describes.
 *
 * @param number the bug kind's number in the evaluation brief, 1 to 8
 * @param mainClass the workload class
 * @param bugKind the kind of bug, for the table
 * @param suitable the column expected to rank the root cause first
 * @param fixStrategy Song and Lu's fix category
 */
public record Workload(
    int number, Class<?> mainClass, String bugKind, Column suitable, String fixStrategy) {

  /** The nested class that generates inputs; it is not part of the program under diagnosis. */
  public static final String INPUTS_CLASS = "Inputs";

  public Workload {
    Objects.requireNonNull(mainClass, "mainClass");
    Objects.requireNonNull(bugKind, "bugKind");
    Objects.requireNonNull(suitable, "suitable");
    Objects.requireNonNull(fixStrategy, "fixStrategy");
  }

  public String name() {
    return mainClass.getSimpleName();
  }

  /** The root causes its source marks. */
  public List<RootCause> rootCauses() {
    return RootCauseMarkers.of(mainClass);
  }

  /**
   * What the agent instruments: the workload class with its nested classes, plus any packages its
   * {@code INCLUDE} constant names (e.g. {@code java.util}).
   */
  public List<String> includes() {
    List<String> includes = new ArrayList<>();
    includes.add(mainClass.getName());
    try {
      Field extra = mainClass.getField("INCLUDE");
      for (String prefix : ((String) extra.get(null)).split(",")) {
        if (!prefix.isBlank()) {
          includes.add(prefix.trim());
        }
      }
    } catch (NoSuchFieldException e) {
      // Only the workload itself.
    } catch (IllegalAccessException | ClassCastException | NullPointerException e) {
      throw new IllegalStateException(
          mainClass.getName() + ".INCLUDE must be a public static String of package prefixes", e);
    }
    return includes;
  }

  /** What the agent leaves out: the input generator, which knows whether an input is bad. */
  public List<String> excludes() {
    return List.of(mainClass.getName() + "$" + INPUTS_CLASS);
  }

  /** Whether the suitable model is ΔLDA on loop branches, i.e. the root cause is a loop. */
  public boolean isLoopBug() {
    return suitable == Column.DELTA_LDA_LOOP;
  }
}
