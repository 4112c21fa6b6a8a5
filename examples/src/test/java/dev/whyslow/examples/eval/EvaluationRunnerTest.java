package dev.whyslow.examples.eval;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class EvaluationRunnerTest {
  @TempDir Path dir;

  Path agent() throws Exception {
    return Files.writeString(dir.resolve("agent.jar"), "not really a jar");
  }

  @Test
  void defaultsAreTenRunsPerSideAPoolOfTwentyAndTheThreeEmulatedSettings() throws Exception {
    EvaluationRunner.Arguments arguments =
        EvaluationRunner.parse(new String[] {"--agent", agent().toString()});
    EvaluationSettings settings = arguments.settings();
    assertThat(settings.runsPerSide()).isEqualTo(10);
    assertThat(settings.poolPerSide()).isEqualTo(20);
    assertThat(settings.rate()).isEqualTo(1e-4);
    assertThat(settings.emulatedRunCounts()).containsExactly(10, 100, 1000);
    assertThat(settings.jobs()).isEqualTo(2);
    assertThat(settings.samplerSeed()).as("production-like: unseeded").isEmpty();
    assertThat(arguments.workloads()).hasSize(8);
    assertThat(arguments.out()).isNull();
    assertThat(arguments.agentJar()).isEqualTo(agent().toAbsolutePath().normalize());
  }

  @Test
  void optionsSelectWorkloadsAndSettings() throws Exception {
    EvaluationRunner.Arguments arguments =
        EvaluationRunner.parse(
            new String[] {
              "--agent", agent().toString(),
              "--workloads", "linestartscan,BulkLoadWriteCache",
              "--runs", "30",
              "--emulated", "10, 50",
              "--sampler-seed", "-7",
              "--out", "x.md"
            });
    assertThat(arguments.workloads())
        .extracting(Workload::name)
        .containsExactly("BulkLoadWriteCache", "LineStartScan");
    assertThat(arguments.settings().runsPerSide()).isEqualTo(30);
    assertThat(arguments.settings().poolPerSide()).as("the pool grows with the runs").isEqualTo(30);
    assertThat(arguments.settings().emulatedRunCounts()).containsExactly(10, 50);
    assertThat(arguments.settings().samplerSeed()).hasValue(-7);
    assertThat(arguments.command())
        .as("the report prints how to regenerate it, seed included")
        .contains("examples/bin/evaluate --sampler-seed -7 --out");
    assertThat(arguments.out()).isEqualTo(Path.of("x.md"));
  }

  @Test
  void badArgumentsSayWhatIsWrong() throws Exception {
    String agent = agent().toString();
    assertThatThrownBy(() -> EvaluationRunner.parse(new String[] {"--agent", agent, "--runs", "0"}))
        .hasMessageContaining("--runs must be a positive integer, was '0'");
    assertThatThrownBy(
            () -> EvaluationRunner.parse(new String[] {"--agent", agent, "--workloads", "Nope"}))
        .hasMessageContaining("unknown workload 'Nope'")
        .hasMessageContaining("LineStartScan");
    assertThatThrownBy(() -> EvaluationRunner.parse(new String[] {"--agent", agent, "--frob", "1"}))
        .hasMessageContaining("unknown option --frob");
    assertThatThrownBy(
            () -> EvaluationRunner.parse(new String[] {"--agent", agent, "--sampler-seed", "1.5"}))
        .hasMessageContaining("--sampler-seed must be a whole number, was '1.5'");
    assertThatThrownBy(
            () -> EvaluationRunner.parse(new String[] {"--agent", dir.resolve("none").toString()}))
        .hasMessageContaining("no agent jar");
  }

  @Test
  void theScalarPairColumnAppearsOnlyWhenTheAgentRecordsScalarPairs() {
    EvaluationSettings settings = EvaluationSettings.defaults();
    assertThat(settings.probes()).isEqualTo("branch,return,scalar-pair");
    assertThat(settings.columns())
        .containsExactly(
            Column.CBI_BRANCH, Column.CBI_RETURN, Column.CBI_SCALAR_PAIR, Column.DELTA_LDA_LOOP);
    assertThat(settings.withProbes("branch,return").columns())
        .containsExactly(Column.CBI_BRANCH, Column.CBI_RETURN, Column.DELTA_LDA_LOOP);
  }

  @Test
  void ratesAreWrittenAsPlainDecimals() {
    assertThat(WorkloadLauncher.rate(1.0)).isEqualTo("1");
    assertThat(WorkloadLauncher.rate(1e-4)).isEqualTo("0.0001");
    assertThat(List.of(WorkloadLauncher.rate(0.001))).containsExactly("0.001");
  }
}
