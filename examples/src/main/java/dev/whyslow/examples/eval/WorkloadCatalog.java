package dev.whyslow.examples.eval;

import dev.whyslow.examples.bugs.BulkLoadWriteCache;
import dev.whyslow.examples.bugs.CsvColumnLookup;
import dev.whyslow.examples.bugs.InvalidationCascade;
import dev.whyslow.examples.bugs.LateEventReindex;
import dev.whyslow.examples.bugs.LineStartScan;
import dev.whyslow.examples.bugs.LinkedListImport;
import dev.whyslow.examples.bugs.TemplateCacheMiss;
import dev.whyslow.examples.bugs.WrapWidthResum;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** The evaluation's workloads, one per kind of bug in Song and Lu's study. */
public final class WorkloadCatalog {
  private WorkloadCatalog() {}

  public static List<Workload> all() {
    return List.of(
        new Workload(
            1,
            BulkLoadWriteCache.class,
            "branch sends some inputs down a slow path",
            Column.CBI_BRANCH,
            "change the branch condition"),
        new Workload(
            2,
            TemplateCacheMiss.class,
            "return value reveals the slow case",
            Column.CBI_RETURN,
            "change what the function returns"),
        new Workload(
            3,
            LineStartScan.class,
            "loop iterates far more on bad inputs",
            Column.DELTA_LDA_LOOP,
            "reduce loop iterations"),
        new Workload(
            4,
            InvalidationCascade.class,
            "cause loop makes work for an effect loop",
            Column.DELTA_LDA_LOOP,
            "reduce loop iterations"),
        new Workload(
            5,
            WrapWidthResum.class,
            "redundant work across loop iterations",
            Column.DELTA_LDA_LOOP,
            "combine loop iterations"),
        new Workload(
            6,
            CsvColumnLookup.class,
            "redundant work across loop instances",
            Column.DELTA_LDA_LOOP,
            "combine loop instances"),
        new Workload(
            7,
            LateEventReindex.class,
            "profiler's hot helper is not the cause",
            Column.CBI_BRANCH,
            "change the branch condition"),
        new Workload(
            8,
            LinkedListImport.class,
            "slowdown inside a JDK library call",
            Column.DELTA_LDA_LOOP,
            "remove the loop (iterate instead)"));
  }

  /**
   * The workloads whose simple class names are listed (case does not matter), in catalogue order.
   *
   * @throws IllegalArgumentException naming the known workloads when a name is unknown
   */
  public static List<Workload> named(List<String> names) {
    List<Workload> selected = new ArrayList<>();
    for (String name : names) {
      Workload found = null;
      for (Workload w : all()) {
        if (w.name().toLowerCase(Locale.ROOT).equals(name.trim().toLowerCase(Locale.ROOT))) {
          found = w;
        }
      }
      if (found == null) {
        List<String> known = new ArrayList<>();
        all().forEach(w -> known.add(w.name()));
        throw new IllegalArgumentException(
            "unknown workload '" + name + "': use one of " + String.join(", ", known));
      }
      if (!selected.contains(found)) {
        selected.add(found);
      }
    }
    selected.sort((a, b) -> Integer.compare(a.number(), b.number()));
    return selected;
  }
}
