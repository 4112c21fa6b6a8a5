package dev.whyslow.examples.eval;

import java.time.Duration;
import java.util.Locale;

/**
 * The report's opening: what the tables show, the command that regenerates them, and how the runs
 * were made and ranked, in enough detail to trust or redo them.
 */
final class SetupSection {
  private final EvaluationSettings settings;
  private final String command;
  private final String machine;
  private final Duration took;
  private final String generatedOn;

  SetupSection(
      EvaluationSettings settings,
      String command,
      String machine,
      Duration took,
      String generatedOn) {
    this.settings = settings;
    this.command = command;
    this.machine = machine;
    this.took = took;
    this.generatedOn = generatedOn;
  }

  void appendTo(StringBuilder md) {
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
                + " %s\n",
            settings.poolPerSide(),
            settings.runsPerSide(),
            settings.poolPerSide(),
            rate,
            settings.runsPerSide(),
            samplerSentence(settings)));
    md.append(
        String.format(
            Locale.ROOT,
            "- **Emulated runs**: a rate-1 run thinned so that every recorded evaluation is kept"
                + " independently with probability %s (binomial thinning per predicate outcome, as"
                + " Song's own ΔLDA drivers emulated their sampler offline). The agent keeps each"
                + " evaluation with that probability too, but samples whole invocations (one in 20"
                + " runs its probes, at the rate over that share; README, *Sampled invocations*):"
                + " for a site evaluated at most once per invocation the thinning is exactly its"
                + " distribution, while a loop's evaluations in one invocation (and a short method's"
                + " called in a loop, which follows its caller's draw) are sampled together or not"
                + " at all, which the thinning does not model and the real column does."
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
            + " sweeps, leaving out predicates true only in failing runs, at sites never sampled"
            + " in a successful one, when chance would explain it (Fisher's exact test at 0.05:"
            + " fewer than 4 failing runs of 10). At least 10 runs per side. Each diagnosis"
            + " returns its top "
            + settings.topN()
            + ".\n");
    md.append(
        "- **Columns**: *CBI branch* is CBI over branch and loop-branch predicates, *CBI return*"
            + " over all return predicates, ");
    if (settings.scalarPairs()) {
      md.append(
          "*CBI scalar-pair* over scalar-pair predicates (every int/long store against the local's"
              + " old value and up to 4 nearby int/long locals), ");
    }
    md.append(
        "*ΔLDA loop-branch* ΔLDA over loop-branch predicates (Song and Lu's"
            + " Branch<sub>loop</sub>).");
    if (!settings.scalarPairs()) {
      md.append(
          " There is no scalar-pair column: this table was generated without the agent's"
              + " scalar-pair probes (`--probes branch,return,scalar-pair` adds them).");
    }
    md.append("\n");
    md.append(
        "- **Cells**: the root cause's rank; `-` when the column's predicates cannot express it;"
            + " `>top` when it is not in the top "
            + settings.topN()
            + ", or when the model ranked nothing at all (for CBI under sampling, typically because"
            + " the predicate was sampled true in fewer than 10 runs). **Bold**: the model that"
            + " suits the bug, which Table 8 of the paper follows.\n");
    md.append("- **Machine**: ").append(machine).append(".\n");
    md.append("- **Generated**: ").append(generatedOn).append(".\n\n");
  }

  private static String samplerSentence(EvaluationSettings settings) {
    if (settings.samplerSeed().isEmpty()) {
      return "The agent's sampler is not seeded, so the real sampled column can differ between"
          + " regenerations.";
    }
    return "The agent's sampler is seeded (`--sampler-seed "
        + settings.samplerSeed().getAsLong()
        + "`: each JVM's `sampling.seed` is that plus twice the input's seed, plus 1 for a bad"
        + " input), so regenerating on the same JDK samples the same evaluations.";
  }

  private static String minutes(Duration took) {
    long seconds = took.toSeconds();
    return seconds / 60 + " min " + seconds % 60 + " s";
  }
}
