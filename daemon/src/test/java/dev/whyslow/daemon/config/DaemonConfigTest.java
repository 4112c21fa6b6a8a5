package dev.whyslow.daemon.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DaemonConfigTest {

  @Test
  void defaultsBindLoopbackAndMatchTheDocumentedValues() {
    DaemonConfig config = DaemonConfig.defaults();
    assertThat(config.dataDir()).isEqualTo(Path.of("./whyslow-data"));
    assertThat(config.agentBind()).isEqualTo(new HostPort("127.0.0.1", 9720));
    assertThat(config.httpBind()).isEqualTo(new HostPort("127.0.0.1", 9721));
    assertThat(config.agentToken()).isEmpty();
    assertThat(config.apiToken()).isEmpty();
    assertThat(config.agentMaxConnections()).isEqualTo(256);
    assertThat(config.agentMaxFrameBytes()).isEqualTo(16 * 1024 * 1024);
    assertThat(config.retentionDays()).isEqualTo(14);
    assertThat(config.storageWriteBufferBytes()).isLessThanOrEqualTo(config.storageCacheBytes());
  }

  @Test
  void documentedPropertiesFileNamesEveryKeyWithItsDefault() throws Exception {
    Path file = Path.of("..", "config", "whyslowd.properties");
    java.util.Properties documented = new java.util.Properties();
    try (var reader = Files.newBufferedReader(file)) {
      documented.load(reader);
    }
    for (ConfigKey key : ConfigKey.values()) {
      assertThat(documented.getProperty(key.key())).as(key.key()).isEqualTo(key.defaultValue());
    }
    assertThat(DaemonCommandLine.parse(List.of("--config", file.toString())).config())
        .isEqualTo(DaemonConfig.defaults());
  }

  @Test
  void withOverridesOneKeyAndAcceptsEphemeralPorts() {
    DaemonConfig config =
        DaemonConfig.defaults().with("agent.bind", "127.0.0.1:0").with("retention.days", "3");
    assertThat(config.agentBind().port()).isZero();
    assertThat(config.retentionDays()).isEqualTo(3);
    assertThat(config.httpBind().port()).isEqualTo(9721);
  }

  @Test
  void sizesAcceptBinaryUnits() {
    DaemonConfig config =
        DaemonConfig.from(
            Map.of("agent.max.frame.bytes", "512KiB", "storage.cache.bytes", "1GiB"), "test");
    assertThat(config.agentMaxFrameBytes()).isEqualTo(512 * 1024);
    assertThat(config.storageCacheBytes()).isEqualTo(1L << 30);
  }

  @Test
  void portOutOfRangeNamesKeyValueAndRange() {
    assertThatThrownBy(() -> DaemonConfig.from(Map.of("agent.bind", "127.0.0.1:70000"), "test"))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining("agent.bind")
        .hasMessageContaining("127.0.0.1:70000")
        .hasMessageContaining("0-65535");
  }

  @Test
  void negativeRetentionIsRefused() {
    assertThatThrownBy(() -> DaemonConfig.from(Map.of("retention.days", "-1"), "--retention.days"))
        .isInstanceOf(ConfigException.class)
        .hasMessage(
            "invalid retention.days '-1' (from --retention.days): is out of range; allowed: 1 to"
                + " 36500");
  }

  @Test
  void unparsableNumberIsRefused() {
    assertThatThrownBy(() -> DaemonConfig.from(Map.of("agent.max.connections", "lots"), "test"))
        .hasMessageContaining("agent.max.connections 'lots'")
        .hasMessageContaining("not a whole number");
    assertThatThrownBy(() -> DaemonConfig.from(Map.of("agent.max.frame.bytes", "16 MB"), "test"))
        .hasMessageContaining("agent.max.frame.bytes")
        .hasMessageContaining("KiB, MiB, GiB");
  }

  @Test
  void unknownKeyIsRefusedWithTheKnownKeys() {
    assertThatThrownBy(
            () -> DaemonConfig.from(Map.of("retention.dayz", "3"), "whyslowd.properties"))
        .hasMessageContaining("unknown configuration key 'retention.dayz'")
        .hasMessageContaining("whyslowd.properties")
        .hasMessageContaining("retention.days");
  }

  @Test
  void writeBuffersLargerThanTheCacheAreRefused() {
    assertThatThrownBy(
            () ->
                DaemonConfig.from(
                    Map.of("storage.cache.bytes", "8MiB", "storage.write.buffer.bytes", "16MiB"),
                    "test"))
        .hasMessageContaining("storage.write.buffer.bytes '16MiB'")
        .hasMessageContaining("storage.cache.bytes");
  }

  @Test
  void tokensNeverAppearInToStringOrErrors() {
    DaemonConfig config = DaemonConfig.defaults().with("agent.token", "s3cret-agent");
    assertThat(config.toString()).doesNotContain("s3cret").contains("agent.token=(set)");
  }

  @Test
  void commandLineOverridesTheFile(@TempDir Path dir) throws Exception {
    Path file = dir.resolve("whyslowd.properties");
    Files.writeString(file, "http.bind=0.0.0.0:8080\nretention.days=30\n");
    DaemonCommandLine cl =
        DaemonCommandLine.parse(
            List.of("--config", file.toString(), "--retention.days=7", "--demo"));
    assertThat(cl.config().httpBind()).isEqualTo(new HostPort("0.0.0.0", 8080));
    assertThat(cl.config().retentionDays()).isEqualTo(7);
    assertThat(cl.demo()).isTrue();
    assertThat(cl.help()).isFalse();
  }

  @Test
  void badValueInFileNamesTheFile(@TempDir Path dir) throws Exception {
    Path file = dir.resolve("bad.properties");
    Files.writeString(file, "agent.max.connections=0\n");
    assertThatThrownBy(() -> DaemonCommandLine.parse(List.of("--config=" + file)))
        .hasMessageContaining("agent.max.connections '0' (from " + file + ")");
  }

  @Test
  void missingFileAndStrayArgumentsAreExplained(@TempDir Path dir) {
    assertThatThrownBy(() -> DaemonCommandLine.parse(List.of("--config", dir + "/nope")))
        .hasMessageContaining("does not exist");
    assertThatThrownBy(() -> DaemonCommandLine.parse(List.of("serve")))
        .hasMessageContaining("unexpected argument 'serve'")
        .hasMessageContaining("usage: whyslowd");
  }

  @Test
  void hostPortParsesIpv6InBrackets() {
    assertThat(HostPort.parse("[::1]:9720")).isEqualTo(new HostPort("::1", 9720));
    assertThat(HostPort.parse("[::1]:9720").toString()).isEqualTo("[::1]:9720");
    assertThatThrownBy(() -> HostPort.parse("9720")).hasMessageContaining("host:port");
  }

  @Test
  void thresholdSettingsDefaultToTheContract() {
    ThresholdSettings t = DaemonConfig.defaults().thresholds();
    assertThat(t.k()).isEqualTo(4);
    assertThat(t.window()).isEqualTo(java.time.Duration.ofMinutes(15));
    assertThat(t.minCount()).isEqualTo(200);
    assertThat(t.method()).isEqualTo(ThresholdMethod.MEAN_SIGMA);
    assertThat(t.interval()).isEqualTo(java.time.Duration.ofSeconds(10));
    assertThat(
            DaemonConfig.defaults()
                .with(Map.of("thresholds.method", "robust", "thresholds.window", "2h"))
                .thresholds())
        .extracting(ThresholdSettings::method, ThresholdSettings::window)
        .containsExactly(ThresholdMethod.ROBUST, java.time.Duration.ofHours(2));
  }

  @Test
  void absurdThresholdSettingsAreRefusedNamingKeyAndRange() {
    assertThatThrownBy(() -> DaemonConfig.from(Map.of("thresholds.k", "-3"), "test"))
        .hasMessageContaining("thresholds.k '-3'")
        .hasMessageContaining("0.5 to 100");
    assertThatThrownBy(() -> DaemonConfig.from(Map.of("thresholds.window", "10 years"), "test"))
        .hasMessageContaining("thresholds.window '10 years'")
        .hasMessageContaining("15m");
    assertThatThrownBy(() -> DaemonConfig.from(Map.of("thresholds.window", "30d"), "test"))
        .hasMessageContaining("1m to 7d");
    assertThatThrownBy(() -> DaemonConfig.from(Map.of("thresholds.min.count", "0"), "test"))
        .hasMessageContaining("thresholds.min.count '0'");
    assertThatThrownBy(() -> DaemonConfig.from(Map.of("thresholds.method", "median"), "test"))
        .hasMessageContaining("mean-sigma, robust");
    assertThatThrownBy(
            () ->
                DaemonConfig.from(
                    Map.of("thresholds.window", "1m", "thresholds.interval", "5m"), "test"))
        .hasMessageContaining("must not exceed thresholds.window");
  }
}
