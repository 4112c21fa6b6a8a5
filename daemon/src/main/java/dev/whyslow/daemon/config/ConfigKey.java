package dev.whyslow.daemon.config;

import java.util.Arrays;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * Every key whyslowd understands, with its default. {@code config/whyslowd.properties} documents
 * the same keys; a key not listed here is refused at startup so a typo never goes unnoticed.
 */
public enum ConfigKey {
  DATA_DIR("data.dir", "./whyslow-data"),
  AGENT_BIND("agent.bind", "127.0.0.1:9720"),
  HTTP_BIND("http.bind", "127.0.0.1:9721"),
  AGENT_TOKEN("agent.token", ""),
  API_TOKEN("api.token", ""),
  AGENT_MAX_CONNECTIONS("agent.max.connections", "256"),
  AGENT_MAX_FRAME_BYTES("agent.max.frame.bytes", "16MiB"),
  RETENTION_DAYS("retention.days", "14"),
  STORAGE_CACHE_BYTES("storage.cache.bytes", "64MiB"),
  STORAGE_WRITE_BUFFER_BYTES("storage.write.buffer.bytes", "32MiB"),
  INGEST_QUEUE_BYTES("ingest.queue.bytes", "64MiB"),
  HTTP_MAX_BODY_BYTES("http.max.body.bytes", "1MiB"),
  THRESHOLDS_K("thresholds.k", "4"),
  THRESHOLDS_WINDOW("thresholds.window", "15m"),
  THRESHOLDS_MIN_COUNT("thresholds.min.count", "200"),
  THRESHOLDS_METHOD("thresholds.method", "mean-sigma"),
  THRESHOLDS_INTERVAL("thresholds.interval", "10s");

  private final String key;
  private final String defaultValue;

  ConfigKey(String key, String defaultValue) {
    this.key = key;
    this.defaultValue = defaultValue;
  }

  public String key() {
    return key;
  }

  public String defaultValue() {
    return defaultValue;
  }

  public static Optional<ConfigKey> byKey(String key) {
    return Arrays.stream(values()).filter(k -> k.key.equals(key)).findFirst();
  }

  /** All keys, comma separated, for error messages. */
  public static String known() {
    return Arrays.stream(values()).map(ConfigKey::key).collect(Collectors.joining(", "));
  }
}
