package dev.whyslow.storage.rocksdb.internal;

import dev.whyslow.protocol.AgentStats;
import dev.whyslow.protocol.MalformedMessageException;
import dev.whyslow.protocol.WireReader;
import dev.whyslow.protocol.WireWriter;

/**
 * The value of an {@code agent_stats} entry: format version (1), then the eleven counters of {@link
 * AgentStats} in declaration order as varlongs.
 */
public final class AgentStatsCodec {
  public static final int FORMAT_VERSION = 1;

  private AgentStatsCodec() {}

  public static byte[] encode(AgentStats s) {
    WireWriter w = new WireWriter(64);
    w.writeByte(FORMAT_VERSION);
    for (long v :
        new long[] {
          s.timestampEpochMillis(),
          s.samplesRecorded(),
          s.sitesRegistered(),
          s.classesInstrumented(),
          s.instrumentationErrors(),
          s.runsRecorded(),
          s.runsSent(),
          s.runsDropped(),
          s.agentErrors(),
          s.reconnects(),
          s.bytesSent()
        }) {
      w.writeVarLong(v);
    }
    return w.toByteArray();
  }

  public static AgentStats decode(byte[] value) throws MalformedMessageException {
    try {
      return read(value);
    } catch (IllegalArgumentException e) {
      // An out-of-range code or a value the record's constructor rejects: damage, not input.
      throw new MalformedMessageException(e.getMessage(), e);
    }
  }

  private static AgentStats read(byte[] value) throws MalformedMessageException {
    WireReader r = new WireReader(value);
    int version = r.readByte("agent stats format version");
    if (version != FORMAT_VERSION) {
      throw new MalformedMessageException(
          "agent stats format version " + version + ", this build reads " + FORMAT_VERSION);
    }
    long[] v = new long[11];
    for (int i = 0; i < v.length; i++) {
      v[i] = r.readVarLong("agent stats counter " + i);
    }
    return new AgentStats(v[0], v[1], v[2], v[3], v[4], v[5], v[6], v[7], v[8], v[9], v[10]);
  }
}
