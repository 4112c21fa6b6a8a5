package dev.whyslow.daemon.config;

import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Validated configuration of whyslowd. Built from defaults, a properties file and command-line
 * overrides ({@link DaemonCommandLine}); tests use {@code DaemonConfig.defaults().with("http.bind",
 * "127.0.0.1:0")}. Absurd values are refused with a {@link ConfigException}.
 *
 * @param agentToken shared secret agents must present; {@code ""} accepts any agent
 * @param apiToken bearer token for HTTP write operations; {@code ""} leaves them open
 * @param ingestQueueBytes estimated decoded size of agent data waiting for the store before
 *     whyslowd stops reading from agent connections
 * @param thresholds how unit thresholds are computed and pushed ({@code thresholds.*})
 */
public record DaemonConfig(
    Path dataDir,
    HostPort agentBind,
    HostPort httpBind,
    String agentToken,
    String apiToken,
    int agentMaxConnections,
    int agentMaxFrameBytes,
    int retentionDays,
    long storageCacheBytes,
    long storageWriteBufferBytes,
    long ingestQueueBytes,
    int httpMaxBodyBytes,
    ThresholdSettings thresholds) {

  public static DaemonConfig defaults() {
    return from(Map.of(), "defaults");
  }

  /** Defaults overridden by {@code values}; {@code source} names where they came from. */
  public static DaemonConfig from(Map<String, String> values, String source) {
    Map<String, Setting> settings = new LinkedHashMap<>();
    values.forEach((k, v) -> settings.put(k, new Setting(v, source)));
    return fromSettings(settings);
  }

  /** This configuration with one key changed, e.g. {@code with("agent.bind", "127.0.0.1:0")}. */
  public DaemonConfig with(String key, String value) {
    return with(Map.of(key, value));
  }

  /** This configuration with several keys changed at once (checked together, not one by one). */
  public DaemonConfig with(Map<String, String> changes) {
    Map<String, String> values = new LinkedHashMap<>(toProperties());
    values.putAll(changes);
    return from(values, "DaemonConfig.with");
  }

  public Duration retention() {
    return Duration.ofDays(retentionDays);
  }

  /** Every key with its value, tokens included; see {@link #toString()} for a loggable form. */
  public Map<String, String> toProperties() {
    Map<String, String> p = new LinkedHashMap<>();
    p.put(ConfigKey.DATA_DIR.key(), dataDir.toString());
    p.put(ConfigKey.AGENT_BIND.key(), agentBind.toString());
    p.put(ConfigKey.HTTP_BIND.key(), httpBind.toString());
    p.put(ConfigKey.AGENT_TOKEN.key(), agentToken);
    p.put(ConfigKey.API_TOKEN.key(), apiToken);
    p.put(ConfigKey.AGENT_MAX_CONNECTIONS.key(), Integer.toString(agentMaxConnections));
    p.put(ConfigKey.AGENT_MAX_FRAME_BYTES.key(), Long.toString(agentMaxFrameBytes));
    p.put(ConfigKey.RETENTION_DAYS.key(), Integer.toString(retentionDays));
    p.put(ConfigKey.STORAGE_CACHE_BYTES.key(), Long.toString(storageCacheBytes));
    p.put(ConfigKey.STORAGE_WRITE_BUFFER_BYTES.key(), Long.toString(storageWriteBufferBytes));
    p.put(ConfigKey.INGEST_QUEUE_BYTES.key(), Long.toString(ingestQueueBytes));
    p.put(ConfigKey.HTTP_MAX_BODY_BYTES.key(), Long.toString(httpMaxBodyBytes));
    p.put(ConfigKey.THRESHOLDS_K.key(), Double.toString(thresholds.k()));
    p.put(ConfigKey.THRESHOLDS_WINDOW.key(), DurationText.format(thresholds.window()));
    p.put(ConfigKey.THRESHOLDS_MIN_COUNT.key(), Long.toString(thresholds.minCount()));
    p.put(ConfigKey.THRESHOLDS_METHOD.key(), thresholds.method().spelling());
    p.put(ConfigKey.THRESHOLDS_INTERVAL.key(), DurationText.format(thresholds.interval()));
    return p;
  }

  @Override
  public String toString() {
    Map<String, String> p = toProperties();
    // Tokens are secrets: say whether one is set, never what it is.
    p.put(ConfigKey.AGENT_TOKEN.key(), agentToken.isEmpty() ? "(none)" : "(set)");
    p.put(ConfigKey.API_TOKEN.key(), apiToken.isEmpty() ? "(none)" : "(set)");
    return "DaemonConfig" + p;
  }

  /** A raw value and where it came from ({@code --agent.bind}, a file name, or defaults). */
  record Setting(String value, String source) {}

  static DaemonConfig fromSettings(Map<String, Setting> settings) {
    Map<ConfigKey, Setting> byKey = new EnumMap<>(ConfigKey.class);
    for (ConfigKey key : ConfigKey.values()) {
      byKey.put(key, new Setting(key.defaultValue(), "defaults"));
    }
    settings.forEach(
        (name, setting) -> {
          ConfigKey key =
              ConfigKey.byKey(name)
                  .orElseThrow(
                      () ->
                          new ConfigException(
                              "unknown configuration key '"
                                  + name
                                  + "' (from "
                                  + setting.source()
                                  + "); known keys: "
                                  + ConfigKey.known()));
          byKey.put(key, new Setting(setting.value().trim(), setting.source()));
        });
    Parser p = new Parser(byKey);
    DaemonConfig config =
        new DaemonConfig(
            p.path(ConfigKey.DATA_DIR),
            p.hostPort(ConfigKey.AGENT_BIND),
            p.hostPort(ConfigKey.HTTP_BIND),
            p.text(ConfigKey.AGENT_TOKEN),
            p.text(ConfigKey.API_TOKEN),
            (int) p.number(ConfigKey.AGENT_MAX_CONNECTIONS, 1, 1_000_000),
            (int) p.bytes(ConfigKey.AGENT_MAX_FRAME_BYTES, 1 << 10, 1 << 30),
            (int) p.number(ConfigKey.RETENTION_DAYS, 1, 36_500),
            p.bytes(ConfigKey.STORAGE_CACHE_BYTES, 1 << 20, 1L << 40),
            p.bytes(ConfigKey.STORAGE_WRITE_BUFFER_BYTES, 1 << 20, 1L << 36),
            p.bytes(ConfigKey.INGEST_QUEUE_BYTES, 1 << 20, 1L << 36),
            (int) p.bytes(ConfigKey.HTTP_MAX_BODY_BYTES, 1 << 10, 1 << 30),
            new ThresholdSettings(
                p.decimal(ConfigKey.THRESHOLDS_K, 0.5, 100),
                p.duration(ConfigKey.THRESHOLDS_WINDOW, Duration.ofMinutes(1), Duration.ofDays(7)),
                p.number(ConfigKey.THRESHOLDS_MIN_COUNT, 10, 1_000_000_000),
                p.method(ConfigKey.THRESHOLDS_METHOD),
                p.duration(
                    ConfigKey.THRESHOLDS_INTERVAL, Duration.ofSeconds(1), Duration.ofHours(1))));
    if (config.thresholds().interval().compareTo(config.thresholds().window()) > 0) {
      throw new ConfigException(
          "invalid thresholds.interval '"
              + byKey.get(ConfigKey.THRESHOLDS_INTERVAL).value()
              + "' (from "
              + byKey.get(ConfigKey.THRESHOLDS_INTERVAL).source()
              + "): must not exceed thresholds.window ("
              + byKey.get(ConfigKey.THRESHOLDS_WINDOW).value()
              + "), or thresholds would be recomputed from windows that skip data");
    }
    if (config.storageWriteBufferBytes() > config.storageCacheBytes()) {
      // RocksDB charges memtables to the block cache, so they cannot be larger than it.
      throw new ConfigException(
          "invalid storage.write.buffer.bytes '"
              + byKey.get(ConfigKey.STORAGE_WRITE_BUFFER_BYTES).value()
              + "' (from "
              + byKey.get(ConfigKey.STORAGE_WRITE_BUFFER_BYTES).source()
              + "): must not exceed storage.cache.bytes ("
              + byKey.get(ConfigKey.STORAGE_CACHE_BYTES).value()
              + "), because write buffers are charged to the cache");
    }
    return config;
  }

  /** Parses one key at a time and words the failure for the operator. */
  private static final class Parser {
    private final Map<ConfigKey, Setting> settings;

    Parser(Map<ConfigKey, Setting> settings) {
      this.settings = settings;
    }

    String text(ConfigKey key) {
      return settings.get(key).value();
    }

    Path path(ConfigKey key) {
      String value = text(key);
      if (value.isEmpty()) {
        throw invalid(key, "must name a directory, e.g. " + key.defaultValue());
      }
      try {
        return Path.of(value);
      } catch (InvalidPathException e) {
        throw invalid(key, "is not a valid path: " + e.getReason());
      }
    }

    HostPort hostPort(ConfigKey key) {
      try {
        return HostPort.parse(text(key));
      } catch (IllegalArgumentException e) {
        throw invalid(key, e.getMessage() + " (e.g. " + key.defaultValue() + ")");
      }
    }

    long number(ConfigKey key, long min, long max) {
      long value;
      try {
        value = Long.parseLong(text(key));
      } catch (NumberFormatException e) {
        throw invalid(key, "is not a whole number; allowed: " + min + " to " + max);
      }
      return inRange(key, value, min, max, Long.toString(min), Long.toString(max));
    }

    double decimal(ConfigKey key, double min, double max) {
      double value;
      try {
        value = Double.parseDouble(text(key));
      } catch (NumberFormatException e) {
        throw invalid(key, "is not a number; allowed: " + min + " to " + max);
      }
      if (!(value >= min && value <= max)) {
        throw invalid(key, "is out of range; allowed: " + min + " to " + max);
      }
      return value;
    }

    Duration duration(ConfigKey key, Duration min, Duration max) {
      Duration value;
      try {
        value = DurationText.parse(text(key));
      } catch (IllegalArgumentException e) {
        throw invalid(key, "is " + e.getMessage());
      }
      if (value.compareTo(min) < 0 || value.compareTo(max) > 0) {
        throw invalid(
            key,
            "is out of range; allowed: "
                + DurationText.format(min)
                + " to "
                + DurationText.format(max));
      }
      return value;
    }

    ThresholdMethod method(ConfigKey key) {
      try {
        return ThresholdMethod.parse(text(key));
      } catch (IllegalArgumentException e) {
        throw invalid(key, "is not a method; " + e.getMessage());
      }
    }

    long bytes(ConfigKey key, long min, long max) {
      long value;
      try {
        value = ByteSize.parse(text(key));
      } catch (IllegalArgumentException e) {
        throw invalid(key, "is " + e.getMessage());
      }
      return inRange(key, value, min, max, ByteSize.format(min), ByteSize.format(max));
    }

    private long inRange(ConfigKey key, long value, long min, long max, String lo, String hi) {
      if (value < min || value > max) {
        throw invalid(key, "is out of range; allowed: " + lo + " to " + hi);
      }
      return value;
    }

    private ConfigException invalid(ConfigKey key, String what) {
      Setting s = settings.get(key);
      boolean secret = key == ConfigKey.AGENT_TOKEN || key == ConfigKey.API_TOKEN;
      return new ConfigException(
          "invalid "
              + key.key()
              + " '"
              + (secret ? "(hidden)" : s.value())
              + "' (from "
              + s.source()
              + "): "
              + what);
    }
  }
}
