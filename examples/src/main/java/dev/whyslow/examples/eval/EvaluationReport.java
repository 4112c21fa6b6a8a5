package dev.whyslow.examples.eval;

import dev.whyslow.daemon.diagnosis.DiagnosisReport;
import dev.whyslow.daemon.diagnosis.ReportedPredictor;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Writes the evaluation as Markdown in the shape of Song and Lu's Table 5 (rank of the root cause
 * per model and predicate kind without sampling) and Table 8 (with sampling, by number of runs),
 * with everything a reader needs to trust or redo it.
 */
public final class EvaluationReport {
  /** How many predictors the details list per column. */
  static final int DETAIL_TOP = 3;

  private final EvaluationSettings settings;
  private final List<WorkloadResult> results;
  private final String command;
  private final String machine;
  private final Duration took;
  private final String generatedOn;

  /**
   * @param command the command that regenerates the report
   * @param machine the machine it ran on
   * @param took how long the whole evaluation took
   * @param generatedOn when, e.g. {@code 2025-11-22}
   */
  public EvaluationReport(
      EvaluationSettings settings,
      List<WorkloadResult> results,
      String command,
      String machine,
      Duration took,
      String generatedOn) {
    this.settings = settings;
    this.results = List.copyOf(results);
    this.command = command;
    this.machine = machine;
    this.took = took;
    this.generatedOn = generatedOn;
  }

  public String markdown() {
    StringBuilder md = new StringBuilder();
    new SetupSection(settings, command, machine, took, generatedOn).appendTo(md);
    exactTable(md);
    sampledTable(md);
    required(md);
    details(md);
    return md.toString();
  }

  private void exactTable(StringBuilder md) {
    md.append("## Table 1: without sampling (rate 1, ")
        .append(settings.runsPerSide())
        .append(" good and ")
        .append(settings.runsPerSide())
        .append(" bad real runs)\n\n");
    List<String> head = new ArrayList<>(List.of("#", "workload", "bug", "root cause"));
    for (Column column : settings.columns()) {
      head.add(column.heading());
    }
    head.add("fix strategy");
    head.add("bad / good time");
    row(md, head);
    separator(md, head.size());
    for (WorkloadResult result : results) {
      Workload w = result.workload();
      List<String> cells = new ArrayList<>();
      cells.add(Integer.toString(w.number()));
      cells.add(w.name());
      cells.add(w.bugKind());
      cells.add(rootCauses(result));
      for (Column column : settings.columns()) {
        String cell = result.exactRank(column).cell();
        cells.add(column == w.suitable() ? "**" + cell + "**" : cell);
      }
      cells.add(w.fixStrategy());
      cells.add(ratio(result));
      row(md, cells);
    }
    md.append("\n*bad / good time*: median time of the work (input generation excluded) of the")
        .append(" bad inputs over the good ones, in the real sampled runs.\n\n");
  }

  private void sampledTable(StringBuilder md) {
    String rate = "1/" + Math.round(1 / settings.rate());
    md.append("## Table 2: sampling at ").append(rate).append("\n\n");
    md.append("Runs per side; *real* = workload JVMs run at ")
        .append(rate)
        .append(", *emul.* = rate-1 runs thinned offline. Only the columns that can express the")
        .append(" root cause.\n\n");
    List<String> head = new ArrayList<>(List.of("#", "workload", "model"));
    head.add(settings.runsPerSide() + " real");
    for (int count : settings.emulatedRunCounts()) {
      head.add(count + " emul.");
    }
    row(md, head);
    separator(md, head.size());
    for (WorkloadResult result : results) {
      for (Column column : settings.columns()) {
        if (!RootCauseRanker.expressible(column, result.rootCauses())) {
          continue;
        }
        Workload w = result.workload();
        boolean suitable = column == w.suitable();
        List<String> cells = new ArrayList<>();
        cells.add(Integer.toString(w.number()));
        cells.add(w.name());
        cells.add(suitable ? "**" + column.heading() + "**" : column.heading());
        cells.add(result.sampledRank(column).cell());
        for (int count : settings.emulatedRunCounts()) {
          Map<Column, List<Rank>> byColumn = result.emulated().get(count);
          cells.add(byColumn == null ? "" : Rank.summary(byColumn.getOrDefault(column, List.of())));
        }
        row(md, cells);
      }
    }
    md.append("\n");
  }

  private void required(StringBuilder md) {
    md.append("## Required results\n\n");
    List<String> missed = new ArrayList<>();
    for (WorkloadResult result : results) {
      if (!result.suitableFirstWithoutSampling()) {
        missed.add(result.workload().name());
      }
    }
    md.append("- Without sampling, the suitable model ranks the root cause first: ")
        .append(verdict(results.size(), missed))
        .append("\n");
    List<String> loopMissed = new ArrayList<>();
    int loops = 0;
    for (WorkloadResult result : results) {
      if (result.workload().isLoopBug()) {
        loops++;
        if (!result.suitableFirstWithRealSampling()) {
          loopMissed.add(result.workload().name());
        }
      }
    }
    md.append("- For the loop bugs, ΔLDA ranks the root cause first at ")
        .append("1/")
        .append(Math.round(1 / settings.rate()))
        .append(" with ")
        .append(settings.runsPerSide())
        .append(" real runs per side: ")
        .append(verdict(loops, loopMissed))
        .append("\n");
    md.append("- Runs per side the suitable model needs at 1/")
        .append(Math.round(1 / settings.rate()))
        .append(" to rank the root cause first (Song and Lu's diagnosis latency; the first setting")
        .append(" of Table 2 whose cell reads 1): ");
    List<String> latencies = new ArrayList<>();
    for (WorkloadResult result : results) {
      latencies.add(result.workload().name() + " " + latency(result));
    }
    md.append(String.join(", ", latencies)).append(".\n\n");
  }

  /** The fewest runs per side with the root cause first in the suitable column. */
  private String latency(WorkloadResult result) {
    Column suitable = result.workload().suitable();
    if (result.sampledRank(suitable).isFirst()) {
      return Integer.toString(settings.runsPerSide());
    }
    int most = settings.runsPerSide();
    for (Map.Entry<Integer, Map<Column, List<Rank>>> e : result.emulated().entrySet()) {
      most = Math.max(most, e.getKey());
      List<Rank> trials = e.getValue().getOrDefault(suitable, List.of());
      if (e.getKey() > settings.runsPerSide()
          && !trials.isEmpty()
          && Rank.median(trials).isFirst()) {
        return Integer.toString(e.getKey());
      }
    }
    return "more than " + most;
  }

  private static String verdict(int total, List<String> missed) {
    if (missed.isEmpty()) {
      return "met, " + total + " of " + total + ".";
    }
    return "**not met** for "
        + String.join(", ", missed)
        + " ("
        + (total - missed.size())
        + " of "
        + total
        + ").";
  }

  private void details(StringBuilder md) {
    md.append("## What each model ranked first, without sampling\n\n");
    md.append("The top ")
        .append(DETAIL_TOP)
        .append(" predictors of each column in Table 1, so a rank can be checked and the")
        .append(" predictors that outranked or stood in for the root cause can be read.\n\n");
    for (WorkloadResult result : results) {
      Workload w = result.workload();
      md.append("### ").append(w.number()).append(". ").append(w.name()).append("\n\n");
      md.append("Root cause: ").append(rootCauses(result)).append(".\n\n");
      for (Column column : settings.columns()) {
        RootCauseRanker.Ranked ranked = result.exact().get(column);
        if (ranked == null) {
          continue;
        }
        DiagnosisReport report = ranked.report();
        md.append("- ")
            .append(column.heading())
            .append(" (rank ")
            .append(ranked.rank().cell())
            .append("): ");
        if (!report.insufficient().isEmpty()) {
          md.append("no predictor (none of ")
              .append(report.predicatesConsidered())
              .append(" predicates passed the model's test, or too few runs)");
        } else {
          List<String> top = new ArrayList<>();
          for (ReportedPredictor p : report.predictors()) {
            if (top.size() == DETAIL_TOP) {
              break;
            }
            String mark = ranked.rootCauseRanks().contains(p.rank()) ? " ← root cause" : "";
            top.add(p.rank() + ". `" + p.description() + "`" + mark);
          }
          md.append(top.isEmpty() ? "no predictor ranked" : String.join("; ", top));
        }
        md.append("\n");
      }
      md.append("\n");
    }
  }

  private static String rootCauses(WorkloadResult result) {
    List<String> causes = new ArrayList<>();
    for (RootCause cause : result.rootCauses()) {
      causes.add("`" + cause.describe() + "`");
    }
    return String.join(" or ", causes);
  }

  private static String ratio(WorkloadResult result) {
    if (result.medianGoodMicros() <= 0) {
      return "";
    }
    return String.format(
        Locale.ROOT,
        "%.1f× (%.1f / %.1f ms)",
        (double) result.medianBadMicros() / result.medianGoodMicros(),
        result.medianBadMicros() / 1000.0,
        result.medianGoodMicros() / 1000.0);
  }

  private static void row(StringBuilder md, List<String> cells) {
    md.append("| ").append(String.join(" | ", cells)).append(" |\n");
  }

  private static void separator(StringBuilder md, int columns) {
    md.append("|");
    for (int i = 0; i < columns; i++) {
      md.append("---|");
    }
    md.append("\n");
  }
}
