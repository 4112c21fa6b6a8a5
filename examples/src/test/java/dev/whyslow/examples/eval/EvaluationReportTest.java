package dev.whyslow.examples.eval;

import static org.assertj.core.api.Assertions.assertThat;

import dev.whyslow.daemon.diagnosis.DiagnosisOptions;
import dev.whyslow.daemon.diagnosis.DiagnosisReport;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class EvaluationReportTest {
  @TempDir Path dir;

  static RootCauseRanker.Ranked ranked(Rank rank) {
    DiagnosisReport report =
        new DiagnosisReport(
            "svc",
            0,
            1,
            "cbi",
            "branch",
            DiagnosisOptions.defaults(),
            10,
            10,
            0,
            List.of(1.0),
            6,
            0,
            List.of(),
            List.of("no predicate passed"),
            List.of());
    return new RootCauseRanker.Ranked(rank, report, Set.of());
  }

  static WorkloadResult result(Workload workload, Rank exactSuitable, Rank sampledSuitable) {
    Map<Column, RootCauseRanker.Ranked> exact = new EnumMap<>(Column.class);
    Map<Column, RootCauseRanker.Ranked> sampled = new EnumMap<>(Column.class);
    for (Column column : Column.values()) {
      exact.put(
          column, ranked(column == workload.suitable() ? exactSuitable : Rank.notExpressible()));
    }
    sampled.put(workload.suitable(), ranked(sampledSuitable));
    Map<Integer, Map<Column, List<Rank>>> emulated =
        Map.of(
            10, Map.of(workload.suitable(), List.of(Rank.notInTop(), Rank.notInTop(), Rank.at(1))),
            100, Map.of(workload.suitable(), List.of(Rank.at(1), Rank.at(2), Rank.at(1))));
    return new WorkloadResult(
        workload,
        workload.rootCauses(),
        exact,
        sampled,
        emulated,
        1_000,
        5_000,
        Duration.ofSeconds(3));
  }

  CommittedTable render(List<WorkloadResult> results) throws Exception {
    return render(results, EvaluationSettings.defaults().withEmulatedRunCounts(List.of(10, 100)));
  }

  CommittedTable render(List<WorkloadResult> results, EvaluationSettings settings)
      throws Exception {
    String markdown =
        new EvaluationReport(
                settings,
                results,
                "examples/bin/evaluate",
                "a test machine",
                Duration.ofSeconds(75),
                "today")
            .markdown();
    Files.writeString(dir.resolve("EVALUATION.md"), markdown, StandardCharsets.UTF_8);
    assertThat(markdown)
        .contains("    examples/bin/evaluate")
        .contains("1 min 15 s on the machine below")
        .contains("**Machine**: a test machine");
    return CommittedTable.read(dir.resolve("EVALUATION.md"));
  }

  @Test
  void tablesShowRanksDashesAndTrialSummariesThatTheTableReaderFindsAgain() throws Exception {
    Workload branch = WorkloadCatalog.all().get(0);
    Workload loop = WorkloadCatalog.all().get(2);
    CommittedTable table =
        render(
            List.of(
                result(branch, Rank.at(1), Rank.notInTop()), result(loop, Rank.at(1), Rank.at(1))));
    assertThat(table.withoutSampling(branch.name(), Column.CBI_BRANCH)).isEqualTo("1");
    assertThat(table.withoutSampling(branch.name(), Column.DELTA_LDA_LOOP)).isEqualTo("-");
    assertThat(table.withSampling(branch.name(), Column.CBI_BRANCH, "10 real")).isEqualTo(">top");
    assertThat(table.withSampling(branch.name(), Column.CBI_BRANCH, "10 emul."))
        .isEqualTo(">top [1–>top]");
    assertThat(table.withSampling(branch.name(), Column.CBI_BRANCH, "100 emul."))
        .isEqualTo("1 [1–2]");
    assertThat(table.withSampling(loop.name(), Column.DELTA_LDA_LOOP, "10 real")).isEqualTo("1");
    assertThat(table.text())
        .contains("suitable model ranks the root cause first: met, 2 of 2.")
        .contains("real runs per side: met, 1 of 1.")
        .contains(branch.name() + " 100, " + loop.name() + " 10.")
        .contains("5.0× (5.0 / 1.0 ms)");
  }

  @Test
  void aMissedRequirementIsNamed() throws Exception {
    Workload loop = WorkloadCatalog.all().get(2);
    CommittedTable table = render(List.of(result(loop, Rank.at(2), Rank.notInTop())));
    assertThat(table.withoutSampling(loop.name(), Column.DELTA_LDA_LOOP)).isEqualTo("2");
    assertThat(table.text())
        .contains("ranks the root cause first: **not met** for " + loop.name() + " (0 of 1).")
        .contains("real runs per side: **not met** for " + loop.name() + " (0 of 1).");
  }

  @Test
  void theSetupSaysWhetherTheSamplerWasSeeded() throws Exception {
    Workload loop = WorkloadCatalog.all().get(2);
    List<WorkloadResult> results = List.of(result(loop, Rank.at(1), Rank.at(1)));

    CommittedTable unseeded = render(results);
    CommittedTable seeded =
        render(results, EvaluationSettings.defaults().withSamplerSeed(OptionalLong.of(2026)));

    assertThat(unseeded.text()).contains("The agent's sampler is not seeded");
    assertThat(seeded.text())
        .contains("The agent's sampler is seeded (`--sampler-seed 2026`")
        .doesNotContain("not seeded");
  }
}
