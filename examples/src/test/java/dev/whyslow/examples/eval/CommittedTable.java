package dev.whyslow.examples.eval;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** Reads cells of the committed {@code EVALUATION.md}, so tests can hold it to what they find. */
final class CommittedTable {
  private final List<String> lines;

  private CommittedTable(List<String> lines) {
    this.lines = lines;
  }

  /** The module's {@code EVALUATION.md} (tests run in the module directory). */
  static CommittedTable read() throws IOException {
    return read(Path.of("EVALUATION.md"));
  }

  static CommittedTable read(Path file) throws IOException {
    return new CommittedTable(Files.readAllLines(file, StandardCharsets.UTF_8));
  }

  /** The whole file. */
  String text() {
    return String.join("\n", lines);
  }

  /** Table 1's cell for {@code workload} under {@code column}'s heading, bold removed. */
  String withoutSampling(String workload, Column column) {
    return cell("## Table 1", workload, null, column.heading());
  }

  /** Table 2's cell for {@code workload}'s row of {@code column}, under {@code heading}. */
  String withSampling(String workload, Column column, String heading) {
    return cell("## Table 2", workload, column.heading(), heading);
  }

  private String cell(String section, String workload, String model, String heading) {
    int start = -1;
    for (int i = 0; i < lines.size() && start < 0; i++) {
      if (lines.get(i).startsWith(section)) {
        start = i;
      }
    }
    if (start < 0) {
      throw new AssertionError("EVALUATION.md has no section '" + section + "'");
    }
    List<String> head = null;
    for (int i = start + 1; i < lines.size() && !lines.get(i).startsWith("## "); i++) {
      if (!lines.get(i).startsWith("|")) {
        continue;
      }
      List<String> cells = cells(lines.get(i));
      if (head == null) {
        head = cells;
        continue;
      }
      if (cells.size() > 2
          && cells.get(1).equals(workload)
          && (model == null || cells.get(2).equals(model))) {
        int column = head.indexOf(heading);
        if (column < 0) {
          throw new AssertionError(section + " has no column '" + heading + "': " + head);
        }
        return cells.get(column);
      }
    }
    throw new AssertionError(section + " has no row for " + workload + " " + model);
  }

  private static List<String> cells(String row) {
    List<String> cells = new ArrayList<>();
    String[] parts = row.split("\\|");
    for (int i = 1; i < parts.length; i++) {
      cells.add(parts[i].trim().replace("**", ""));
    }
    return cells;
  }
}
