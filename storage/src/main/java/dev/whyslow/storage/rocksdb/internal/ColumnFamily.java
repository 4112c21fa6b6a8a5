package dev.whyslow.storage.rocksdb.internal;

import java.nio.charset.StandardCharsets;

/**
 * The column families of a Whyslow store, one per kind of record. Those not written yet are created
 * empty on first open so that the features that fill them need no migration.
 */
public enum ColumnFamily {
  SITES("sites", false),
  RUNS("runs", true),
  UNIT_STATS("unit_stats", false),
  THRESHOLDS("thresholds", false),
  VIOLATIONS("violations", true),
  EXPERIMENTS("experiments", false),
  REPORTS("reports", false),
  AGENT_STATS("agent_stats", false),
  UNIT_TYPES("unit_types", false),
  META("meta", false);

  private final String cfName;
  private final boolean bulk;

  ColumnFamily(String cfName, boolean bulk) {
    this.cfName = cfName;
    this.bulk = bulk;
  }

  public String cfName() {
    return cfName;
  }

  public byte[] nameBytes() {
    return cfName.getBytes(StandardCharsets.UTF_8);
  }

  /** Whether this family takes a high, time-ordered write volume (bigger memtables and blocks). */
  public boolean bulk() {
    return bulk;
  }
}
