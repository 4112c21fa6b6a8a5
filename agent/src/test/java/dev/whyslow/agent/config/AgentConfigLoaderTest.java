package dev.whyslow.agent.config;

import static org.assertj.core.api.Assertions.assertThat;

import dev.whyslow.protocol.Label;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class AgentConfigLoaderTest {
  @TempDir Path dir;

  @Test
  void defaultsApplyWhenNothingIsSet() {
    AgentConfigLoader.Result r = AgentConfigLoader.load(null, Map.of(), Map.of());
    AgentConfig c = r.config();
    assertThat(c.enabled()).isTrue();
    assertThat(c.service()).isEqualTo("unknown-service");
    assertThat(c.instance()).isEmpty();
    assertThat(c.version()).isEqualTo("unknown");
    assertThat(c.daemonAddress()).isEqualTo("127.0.0.1:9720");
    assertThat(c.samplingRate()).isEqualTo(1e-4);
    assertThat(c.include()).isEmpty();
    assertThat(c.probes()).isEqualTo(ProbeSet.DEFAULT);
    assertThat(c.probes().scalarPairs()).isFalse();
    assertThat(c.processRun()).isTrue();
    assertThat(c.label()).isEqualTo(Label.DO_NOT_CARE);
    assertThat(c.queueCapacity()).isEqualTo(1024);
    assertThat(c.maxPredicates()).isEqualTo(400_000);
    assertThat(c.shutdownFlushTimeoutMillis()).isEqualTo(2000);
    assertThat(c.connectDelayMillis()).isEqualTo(5_000);
    assertThat(c.log()).isEqualTo(LogLevel.WARN);
    assertThat(r.problems())
        .anySatisfy(p -> assertThat(p).contains("service is not set"))
        .anySatisfy(p -> assertThat(p).contains("include is empty"));
  }

  @Test
  void agentArgumentsBeatSystemPropertiesBeatEnvironmentBeatFileBeatDefaults() throws IOException {
    Path file = dir.resolve("agent.properties");
    Files.writeString(
        file, "service=from-file\nversion=file-version\ntoken=file-token\nlabel=failure\n");
    Map<String, String> env =
        Map.of(
            "WHYSLOW_SERVICE", "from-env",
            "WHYSLOW_VERSION", "env-version",
            "WHYSLOW_TOKEN", "env-token",
            "WHYSLOW_CONFIG", file.toString());
    Map<String, String> sys =
        Map.of("whyslow.service", "from-sys", "whyslow.version", "sys-version");
    AgentConfig c = AgentConfigLoader.load("service=from-args", sys, env).config();
    assertThat(c.service()).isEqualTo("from-args");
    assertThat(c.version()).isEqualTo("sys-version");
    assertThat(c.token()).isEqualTo("env-token");
    assertThat(c.label()).isEqualTo(Label.FAILURE);
    assertThat(c.samplingRate()).isEqualTo(1e-4);
  }

  @Test
  void listsContinueAcrossCommasInAgentArguments() {
    AgentConfigLoader.Result r =
        AgentConfigLoader.load(
            "include=com.acme,org.lib/util,service=checkout,exclude=com.acme.gen.*",
            Map.of(),
            Map.of());
    assertThat(r.config().include()).containsExactly("com.acme", "org.lib.util");
    assertThat(r.config().exclude()).containsExactly("com.acme.gen");
    assertThat(r.config().service()).isEqualTo("checkout");
    assertThat(r.problems()).isEmpty();
  }

  @Test
  void samplingRateAcceptsAFraction() {
    assertThat(rate("sampling.rate=1/10000")).isEqualTo(1e-4);
    assertThat(rate("sampling.rate=1")).isEqualTo(1.0);
    assertThat(rate("sampling.rate=0.000001")).isEqualTo(1e-6);
  }

  @Test
  void theSamplingSeedIsUnsetByDefaultAndAWholeNumberWhenSet() {
    assertThat(AgentConfigLoader.load("service=s,include=a", Map.of(), Map.of()).config())
        .satisfies(c -> assertThat(c.samplingSeed()).isEmpty())
        .satisfies(c -> assertThat(c.toString()).doesNotContain("sampling.seed"));
    AgentConfig seeded =
        AgentConfigLoader.load(
                "service=s,include=a", Map.of("whyslow.sampling.seed", "-7"), Map.of())
            .config();
    assertThat(seeded.samplingSeed()).hasValue(-7);
    assertThat(seeded.toString()).contains("sampling.seed=-7");

    AgentConfigLoader.Result bad =
        AgentConfigLoader.load("service=s,include=a,sampling.seed=0x1f", Map.of(), Map.of());
    assertThat(bad.config().samplingSeed()).isEmpty();
    assertThat(bad.problems())
        .containsExactly("sampling.seed=0x1f (agent arguments) is not a whole number; left unset");
  }

  @Test
  void badValuesAreReportedWithKeyValueSourceAndDefaultAndTheDefaultIsUsed() {
    AgentConfigLoader.Result r =
        AgentConfigLoader.load(
            "service=s,include=a,sampling.rate=2,label=maybe,daemon=nohost,queue.capacity=-1,"
                + "log=loud,enabled=yes,probes=branch,scalar",
            Map.of(),
            Map.of());
    AgentConfig c = r.config();
    assertThat(c.samplingRate()).isEqualTo(1e-4);
    assertThat(c.label()).isEqualTo(Label.DO_NOT_CARE);
    assertThat(c.daemonAddress()).isEqualTo("127.0.0.1:9720");
    assertThat(c.queueCapacity()).isEqualTo(1024);
    assertThat(c.log()).isEqualTo(LogLevel.WARN);
    assertThat(c.enabled()).isTrue();
    assertThat(c.probes()).isEqualTo(new ProbeSet(true, false));
    assertThat(r.problems())
        .contains(
            "sampling.rate=2 (agent arguments) is not a rate in [1e-6, 1] (write 0.0001 or"
                + " 1/10000); using the default sampling.rate=0.0001",
            "label=maybe (agent arguments) is not success, failure or do-not-care; using the"
                + " default label=do-not-care",
            "daemon=nohost (agent arguments) is not host:port with a port in [1, 65535]; using the"
                + " default daemon=127.0.0.1:9720")
        .anySatisfy(p -> assertThat(p).startsWith("queue.capacity=-1 (agent arguments)"))
        .anySatisfy(p -> assertThat(p).startsWith("log=loud"))
        .anySatisfy(p -> assertThat(p).startsWith("enabled=yes"))
        .anySatisfy(p -> assertThat(p).contains("'scalar'"));
  }

  @Test
  void anInvocationShareOutsideZeroToOneIsReportedAndTheDefaultUsed() {
    for (String bad : new String[] {"0", "1.5", "often"}) {
      AgentConfigLoader.Result r =
          AgentConfigLoader.load(
              "service=s,include=a,sampling.invocation.share=" + bad, Map.of(), Map.of());
      assertThat(r.config().invocations())
          .isEqualTo(new InvocationSampling(true, 0.05, 0.01, 5_000));
      assertThat(r.problems())
          .contains(
              "sampling.invocation.share="
                  + bad
                  + " (agent arguments) is not a share in (0, 1] (write 0.05 or 1/20); using the"
                  + " default sampling.invocation.share=0.05");
    }
    assertThat(
            AgentConfigLoader.load(
                    "sampling.invocations=off,sampling.invocation.share=1/10", Map.of(), Map.of())
                .config()
                .invocations())
        .isEqualTo(new InvocationSampling(false, 0.1, 0.01, 5_000));
  }

  @Test
  void theSteadyShareIsNeverAboveTheShareAndItsWindowIsADuration() {
    AgentConfigLoader.Result low =
        AgentConfigLoader.load(
            "service=s,include=a,sampling.invocation.share=0.005", Map.of(), Map.of());
    assertThat(low.config().invocations().steadyShare()).isEqualTo(0.005);
    assertThat(low.config().invocations().lowers()).isFalse();
    AgentConfigLoader.Result set =
        AgentConfigLoader.load(
            "service=s,include=a,sampling.invocation.share.steady=1/50,sampling.invocation.settle=30s",
            Map.of(),
            Map.of());
    assertThat(set.problems()).isEmpty();
    assertThat(set.config().invocations())
        .isEqualTo(new InvocationSampling(true, 0.05, 0.02, 30_000));
    AgentConfigLoader.Result bad =
        AgentConfigLoader.load(
            "service=s,include=a,sampling.invocation.share.steady=0,sampling.invocation.settle=soon",
            Map.of(),
            Map.of());
    assertThat(bad.config().invocations())
        .isEqualTo(new InvocationSampling(true, 0.05, 0.01, 5_000));
    assertThat(bad.problems())
        .anySatisfy(p -> assertThat(p).startsWith("sampling.invocation.share.steady=0"))
        .anySatisfy(p -> assertThat(p).startsWith("sampling.invocation.settle=soon"));
  }

  @Test
  void theConnectDelayMayBeZeroButNotPastTenMinutes() {
    assertThat(connectDelay("daemon.connect.delay=0").config().connectDelayMillis()).isZero();
    assertThat(connectDelay("daemon.connect.delay=1500ms").config().connectDelayMillis())
        .isEqualTo(1_500);
    assertThat(connectDelay("daemon.connect.delay=10m").problems()).isEmpty();
    for (String absurd : new String[] {"11m", "-1s", "later", "999999999999h"}) {
      AgentConfigLoader.Result r = connectDelay("daemon.connect.delay=" + absurd);
      assertThat(r.config().connectDelayMillis()).isEqualTo(5_000);
      assertThat(r.problems())
          .anySatisfy(
              problem ->
                  assertThat(problem)
                      .startsWith("daemon.connect.delay=" + absurd)
                      .contains("from 0 to 600s"));
    }
  }

  private static AgentConfigLoader.Result connectDelay(String setting) {
    return AgentConfigLoader.load("service=s,include=a," + setting, Map.of(), Map.of());
  }

  @Test
  void scalarPairsAreOnlyOnWhenNamedOrWithAll() {
    assertThat(probes("probes=branch,return,scalar-pair"))
        .isEqualTo(new ProbeSet(true, true, true, 4));
    assertThat(probes("probes=all")).isEqualTo(ProbeSet.ALL);
    assertThat(ProbeSet.ALL.scalarPairs()).isTrue();
    assertThat(probes("probes=scalar-pair,scalar.pair.partners=2"))
        .isEqualTo(new ProbeSet(false, false, true, 2));
    assertThat(probes("probes=return,scalar.pair.partners=0"))
        .isEqualTo(new ProbeSet(false, true, false, 0));
    assertThat(probes("probes=all").toString()).isEqualTo("branch,return,scalar-pair (4 partners)");
  }

  @Test
  void aBadPartnerCapIsReportedAndTheDefaultUsed() {
    AgentConfigLoader.Result r =
        AgentConfigLoader.load(
            "service=s,include=a,probes=all,scalar.pair.partners=1000", Map.of(), Map.of());
    assertThat(r.config().probes()).isEqualTo(ProbeSet.ALL);
    assertThat(r.problems())
        .containsExactly(
            "scalar.pair.partners=1000 (agent arguments) is not a whole number in [0, 64]; using"
                + " the default scalar.pair.partners=4");
  }

  @Test
  void probesNamingNoKnownFamilyFallBackToTheDefaultFamilies() {
    AgentConfigLoader.Result r =
        AgentConfigLoader.load("service=s,include=a,probes=scalar", Map.of(), Map.of());
    assertThat(r.config().probes()).isEqualTo(ProbeSet.DEFAULT);
    assertThat(r.problems())
        .anySatisfy(p -> assertThat(p).contains("'scalar'").contains("scalar-pair"))
        .anySatisfy(p -> assertThat(p).startsWith("probes=scalar (agent arguments) names no"));
  }

  @Test
  void problemsNameTheSourceOfTheBadValue() {
    AgentConfigLoader.Result r =
        AgentConfigLoader.load(
            null,
            Map.of("whyslow.sampling.rate", "often"),
            Map.of("WHYSLOW_MAX_PREDICATES", "lots", "WHYSLOW_SERVICE", "s"));
    assertThat(r.problems())
        .anySatisfy(
            p -> assertThat(p).startsWith("sampling.rate=often (system property whyslow.sampling"))
        .anySatisfy(
            p ->
                assertThat(p)
                    .startsWith(
                        "max.predicates=lots (environment variable WHYSLOW_MAX_PREDICATES)"));
  }

  @Test
  void unknownKeysAndMalformedArgumentsAreReportedAndIgnored() {
    AgentConfigLoader.Result r =
        AgentConfigLoader.load("servce=x,=,service=ok", Map.of(), Map.of());
    assertThat(r.config().service()).isEqualTo("ok");
    assertThat(r.problems()).anySatisfy(p -> assertThat(p).contains("unknown key 'servce'"));
  }

  @Test
  void anUnreadableConfigFileIsReportedAndSkipped() {
    AgentConfigLoader.Result r =
        AgentConfigLoader.load(
            "config=" + dir.resolve("missing.properties") + ",service=s", Map.of(), Map.of());
    assertThat(r.config().service()).isEqualTo("s");
    assertThat(r.problems())
        .anySatisfy(p -> assertThat(p).contains("cannot read the configuration file"));
  }

  @Test
  void daemonAcceptsIpv6AndHostNames() {
    assertThat(daemon("daemon=[::1]:9000")).isEqualTo("[::1]:9000");
    assertThat(daemon("daemon=whyslowd.internal:19720")).isEqualTo("whyslowd.internal:19720");
    assertThat(daemon("daemon=host:70000")).isEqualTo("127.0.0.1:9720");
  }

  @Test
  void theTokenNeverAppearsInToString() {
    AgentConfig c = AgentConfigLoader.load("token=s3cret", Map.of(), Map.of()).config();
    assertThat(c.toString()).doesNotContain("s3cret");
  }

  @Test
  void everyKeyIsDocumentedInTheShippedAgentProperties() throws IOException {
    Path doc = Path.of("..", "config", "agent.properties");
    String text = Files.readString(doc);
    List<String> keys = List.copyOf(AgentConfigLoader.DEFAULTS.keySet());
    for (String key : keys) {
      assertThat(text).as("config/agent.properties documents " + key).contains("# " + key + "=");
    }
  }

  private static double rate(String args) {
    return AgentConfigLoader.load(args, Map.of(), Map.of()).config().samplingRate();
  }

  private static ProbeSet probes(String args) {
    return AgentConfigLoader.load(args, Map.of(), Map.of()).config().probes();
  }

  private static String daemon(String args) {
    return AgentConfigLoader.load(args, Map.of(), Map.of()).config().daemonAddress();
  }

  @Test
  void samplingWindowsAreOffByDefaultAndAWindowMustBeShorterThanItsPeriod() {
    assertThat(AgentConfigLoader.load("service=s,include=a", Map.of(), Map.of()).config().windows())
        .isEqualTo(new SamplingWindowSettings(false, 30_000, 300_000));
    AgentConfigLoader.Result set =
        AgentConfigLoader.load(
            "service=s,include=a,sampling.windows=on,sampling.window=10s,sampling.window.every=1m",
            Map.of(),
            Map.of());
    assertThat(set.problems()).isEmpty();
    assertThat(set.config().windows()).isEqualTo(new SamplingWindowSettings(true, 10_000, 60_000));
    assertThat(set.config().windows().raise()).isEqualTo(6.0);
    assertThat(
            AgentConfigLoader.load("service=s,include=a,sampling.windows=off", Map.of(), Map.of())
                .config()
                .windows()
                .enabled())
        .isFalse();
    AgentConfigLoader.Result bad =
        AgentConfigLoader.load(
            "service=s,include=a,sampling.window=10m,sampling.window.every=5m,sampling.windows=yes",
            Map.of(),
            Map.of());
    assertThat(bad.config().windows()).isEqualTo(SamplingWindowSettings.defaults());
    assertThat(bad.problems())
        .anySatisfy(p -> assertThat(p).startsWith("sampling.windows=yes"))
        .anySatisfy(
            p -> assertThat(p).contains("is not shorter than sampling.window.every (300000 ms)"));
  }
}
