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
    header(md);
    exactTable(md);
    sampledTable(md);
    required(md);
    details(md);
    return md.toString();
  }

  private void header(StringBuilder md) {
    String rate = "1/" + Math.round(1 / settings.rate());
    md.append("# Diagnosis evaluation: where Whyslow ranks the root cause\n\n");
    md.append(
        "Eight workloads re-create the kinds of performance bug Song and Lu studied (OOPSLA'14)."
            + " Each runs many good and bad inputs under the agent; whyslowd's diagnosis ranks the"
            + " predicates, and the tables give the rank of the predicate the workload's source"
            + " marks as the root cause, like the paper's Table 5 (no sampling) and Table 8"
            + " (sampling at "
            + rate
            + ").\n\n");
    md.append("Regenerate it from the repository root (")
        .append(minutes(took))
        .append(" on the machine below):\n\n");
    md.append("    ").append(command).append("\n\n");
    md.append("## Setup\n\n");
    md.append(
        "- **Workloads**: `examples/src/main/java/dev/whyslow/examples/bugs/`, each run as `<class>"
            + " good|bad <seed>` in its own JVM under the shaded agent (`probes="
            + settings.probes()
            + "`, one process run per JVM, labelled success for a good input and failure for a bad"
            + " one), at most "
            + settings.jobs()
            + " JVMs at a time, sending to an in-process whyslowd on a temporary RocksDB directory."
            + " The agent instruments the workload class, and `java.util` for LinkedListImport, but"
            + " not the nested input generator, which knows whether an input is bad. Each root cause"
            + " is marked in the source with `// ROOT CAUSE: <kind> <predicate>` (LinkedListImport:"
            + " its `ROOT_CAUSE_IN_LIBRARY` constant names `java.util.LinkedList#node`); the runner"
            + " stops if a marker matches no observed predicate.\n");
    md.append(
        String.format(
            Locale.ROOT,
            "- **Real runs**: at rate 1, seeds 1–%d per side (seeds 1–%d for Table 1, all %d as the"
                + " emulation pool); at rate %s, seeds 1–%d per side (the same inputs as Table 1)."
                + " The agent's sampler is not seeded, so the real sampled column can differ"
                + " between regenerations.\n",
            settings.poolPerSide(),
            settings.runsPerSide(),
            settings.poolPerSide(),
            rate,
            settings.runsPerSide()));
    md.append(
        String.format(
            Locale.ROOT,
            "- **Emulated runs**: a rate-1 run thinned so that every recorded evaluation is kept"
                + " with probability %s (binomial thinning per predicate outcome; the agent's"
                + " geometric countdown is a Bernoulli process, so this is exactly the distribution"
                + " of a sampled run, and Song's own ΔLDA drivers emulated their sampler offline)."
                + " %d emulated runs per side use the same %d inputs as the real column; larger"
                + " counts draw with replacement from the %d distinct inputs per side. %d trials"
                + " per cell with fixed seeds; a cell shows the median rank, and [best–worst] when"
                + " the trials differ.\n",
            rate,
            settings.runsPerSide(),
            settings.runsPerSide(),
            settings.poolPerSide(),
            settings.trials()));
    md.append(
        "- **Diagnosis**: `DiagnosisService` with default options, as the daemon's API uses it:"
            + " CBI at 0.99 confidence, support ≥ 10 runs, Importance from Increase, iterative"
            + " elimination; ΔLDA with 2 usage + 1 bug topic, α = 0.1, β = 1, seed 194582, 200"
            + " sweeps. At least 10 runs per side. Each diagnosis returns its top "
            + settings.topN()
            + ".\n");
    md.append(
        "- **Columns**: *CBI branch* is CBI over branch and loop-branch predicates, *CBI return*"
            + " over all return predicates, *ΔLDA loop-branch* ΔLDA over loop-branch predicates"
            + " (Song and Lu's Branch<sub>loop</sub>)");
    if (settings.scalarPairs()) {
      md.append(
          ", *CBI scalar-pair* over scalar-pair predicates (every int/long store against the"
              + " local's old value and up to 4 nearby int/long locals).");
    } else {
      md.append(
          ". There is no scalar-pair column: this table was generated without the agent's"
              + " scalar-pair probes (`--probes branch,return,scalar-pair` adds them).");
    }
    md.append("\n");
    md.append(
        "- **Cells**: the root cause's rank; `-` when the column's predicates cannot express it;"
            + " `>top` when it is not in the top "
            + settings.topN()
            + " (the details say when the model found no predictor at all). **Bold**: the model"
            + " that suits the bug, which Table 2 follows as the paper's Table 8 does.\n");
    md.append("- **Machine**: ").append(machine).append(".\n");
    md.append("- **Generated**: ").append(generatedOn).append(".\n\n");
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
        .append("\n\n");
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

  private static String minutes(Duration took) {
    long seconds = took.toSeconds();
    return seconds / 60 + " min " + seconds % 60 + " s";
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
