package dev.whyslow.agent.config;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The {@code units.*} keys: defaults, spellings, and bad values replaced by defaults. */
class UnitSettingsConfigTest {
  @Test
  void defaultsMatchTheDocumentedOnes() {
    UnitSettings units = AgentConfigLoader.load(null, Map.of(), Map.of()).config().units();
    assertThat(units).isEqualTo(UnitSettings.defaults());
    assertThat(units.enabled()).isTrue();
    assertThat(units.statsIntervalMillis()).isEqualTo(10_000);
    assertThat(units.watchdogIntervalMillis()).isEqualTo(1_000);
  }

  @Test
  void everyKeyIsRead() {
    UnitSettings units =
        AgentConfigLoader.load(
                "units=off,units.training.units=50,units.training.share=1/2,"
                    + "units.stats.interval=2m,units.runs=all,units.watchdog.interval=250ms,"
                    + "units.declare=com.acme.Worker#process,com.acme.Job#run,units.audit.share=0.1,"
                    + "units.depth=all,units.choice=unit",
                Map.of(),
                Map.of())
            .config()
            .units();
    assertThat(units)
        .isEqualTo(
            new UnitSettings(
                false,
                50,
                0.5,
                120_000,
                true,
                250,
                List.of("com.acme.Worker#process", "com.acme.Job#run"),
                0.1,
                true,
                true));
  }

  @Test
  void badValuesAreReportedAndReplacedByDefaults() {
    AgentConfigLoader.Result r =
        AgentConfigLoader.load(
            "units=maybe,units.training.share=2,units.stats.interval=soon,units.runs=some,"
                + "units.declare=NoHash,units.depth=some",
            Map.of(),
            Map.of());
    UnitSettings units = r.config().units();
    assertThat(units.enabled()).isTrue();
    assertThat(units.trainingShare()).isEqualTo(0.25);
    assertThat(units.statsIntervalMillis()).isEqualTo(10_000);
    assertThat(units.allRuns()).isFalse();
    assertThat(units.declared()).isEmpty();
    assertThat(units.depthInEveryFrame()).isFalse();
    assertThat(r.problems())
        .anySatisfy(p -> assertThat(p).contains("units=maybe (agent arguments) is not on or off"))
        .anySatisfy(p -> assertThat(p).contains("units.training.share=2"))
        .anySatisfy(p -> assertThat(p).contains("units.stats.interval=soon"))
        .anySatisfy(p -> assertThat(p).contains("units.runs=some"))
        .anySatisfy(p -> assertThat(p).contains("units.depth=some"))
        .anySatisfy(p -> assertThat(p).contains("'NoHash'"));
  }
}
