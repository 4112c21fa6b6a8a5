package dev.whyslow.storage;

import java.util.Map;

/**
 * Store health for metrics: sizes and, for RocksDB, engine properties such as pending compaction
 * bytes. Keys of {@code engine} are snake_case metric-name suffixes in base units.
 */
public record StoreStats(long runCount, long siteCount, long diskBytes, Map<String, Long> engine) {}
