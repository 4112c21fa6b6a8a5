package dev.whyslow.daemon.cli;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** Plain aligned columns for people: a header row, then one row per item, two spaces apart. */
final class Table {
  private final List<String[]> rows = new ArrayList<>();
  private final int columns;

  Table(String... header) {
    this.columns = header.length;
    rows.add(header);
  }

  Table row(Object... cells) {
    if (cells.length != columns) {
      throw new IllegalArgumentException("expected " + columns + " cells, got " + cells.length);
    }
    String[] text = new String[cells.length];
    for (int i = 0; i < cells.length; i++) {
      text[i] = String.valueOf(cells[i]);
    }
    rows.add(text);
    return this;
  }

  int size() {
    return rows.size() - 1;
  }

  void print(PrintStream out) {
    int[] widths = new int[columns];
    for (String[] row : rows) {
      for (int i = 0; i < columns; i++) {
        widths[i] = Math.max(widths[i], row[i].length());
      }
    }
    for (String[] row : rows) {
      StringBuilder line = new StringBuilder();
      for (int i = 0; i < columns; i++) {
        line.append(row[i]);
        if (i < columns - 1) {
          line.append(" ".repeat(widths[i] - row[i].length() + 2));
        }
      }
      out.println(line.toString().stripTrailing());
    }
  }

  /** A JSON array as {@code a,b,c}, or {@code -} when empty. */
  static String list(JsonNode array) {
    StringBuilder s = new StringBuilder();
    for (JsonNode n : array) {
      s.append(s.length() == 0 ? "" : ",").append(n.asText());
    }
    return s.length() == 0 ? "-" : s.toString();
  }

  /** {@code CHANGE_BRANCH_CONDITION} as {@code change branch condition}. */
  static String words(String constant) {
    return constant.toLowerCase(java.util.Locale.ROOT).replace('_', ' ');
  }

  static String millis(long nanos) {
    return String.format(Locale.ROOT, "%.3f ms", nanos / 1e6);
  }
}
