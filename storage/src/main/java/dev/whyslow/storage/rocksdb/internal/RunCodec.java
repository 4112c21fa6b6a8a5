package dev.whyslow.storage.rocksdb.internal;

import dev.whyslow.protocol.Label;
import dev.whyslow.protocol.MalformedMessageException;
import dev.whyslow.protocol.Run;
import dev.whyslow.protocol.RunKind;
import dev.whyslow.protocol.SiteCounts;
import dev.whyslow.protocol.WireReader;
import dev.whyslow.protocol.WireWriter;
import dev.whyslow.storage.RunIds;
import dev.whyslow.storage.RunOrigin;
import dev.whyslow.storage.StoredRun;
import java.util.ArrayList;
import java.util.List;

/**
 * The value of a {@code runs} entry. The start time is not stored: it is the high bits of the key.
 * Label and kind sit at fixed offsets so that filters and relabelling touch single bytes.
 *
 * <pre>
 * [0] format version (1)   [1] label code   [2] kind code
 * string service, string instance, string service version, string unit type   (varint length + UTF-8)
 * varlong sequence, varlong duration ns, double sampling rate (8 bytes)
 * varint site count, per site: long site key (8 bytes), varlong observed,
 *                              varint predicate count, varlong true count per predicate
 * </pre>
 */
public final class RunCodec {
  public static final int FORMAT_VERSION = 1;
  static final int LABEL_OFFSET = 1;
  static final int KIND_OFFSET = 2;
  static final int STRINGS_OFFSET = 3;

  private RunCodec() {}

  public static byte[] encode(RunOrigin origin, Run run, WireWriter w) {
    w.reset();
    w.writeByte(FORMAT_VERSION).writeByte(run.label().code()).writeByte(run.kind().code());
    w.writeString(origin.service())
        .writeString(origin.instance())
        .writeString(origin.serviceVersion())
        .writeString(run.unitType());
    w.writeVarLong(run.sequence())
        .writeVarLong(run.durationNanos())
        .writeDouble(run.samplingRate());
    w.writeVarInt(run.sites().size());
    for (SiteCounts site : run.sites()) {
      w.writeLong(site.siteKey()).writeVarLong(site.observed());
      long[] trueCounts = site.trueCounts();
      w.writeVarInt(trueCounts.length);
      for (long c : trueCounts) {
        w.writeVarLong(c);
      }
    }
    return w.toByteArray();
  }

  public static StoredRun decode(long runId, byte[] value) throws MalformedMessageException {
    try {
      return read(runId, value);
    } catch (IllegalArgumentException e) {
      // An out-of-range code or a value the record's constructor rejects: damage, not input.
      throw new MalformedMessageException(e.getMessage(), e);
    }
  }

  private static StoredRun read(long runId, byte[] value) throws MalformedMessageException {
    WireReader r = new WireReader(value);
    int version = r.readByte("run format version");
    if (version != FORMAT_VERSION) {
      throw new MalformedMessageException(
          "run format version " + version + ", this build reads " + FORMAT_VERSION);
    }
    Label label = Label.fromCode(r.readByte("label"));
    RunKind kind = RunKind.fromCode(r.readByte("kind"));
    RunOrigin origin =
        new RunOrigin(r.readString("service"), r.readString("instance"), r.readString("version"));
    String unitType = r.readString("unit type");
    long sequence = r.readVarLong("sequence");
    long durationNanos = r.readVarLong("duration");
    double samplingRate = r.readDouble("sampling rate");
    int siteCount = r.readCount("site count", 10);
    List<SiteCounts> sites = new ArrayList<>(siteCount);
    for (int i = 0; i < siteCount; i++) {
      long siteKey = r.readLong("site key");
      long observed = r.readVarLong("observed");
      long[] trueCounts = new long[r.readCount("predicate count", 1)];
      for (int p = 0; p < trueCounts.length; p++) {
        trueCounts[p] = r.readVarLong("true count");
      }
      sites.add(new SiteCounts(siteKey, observed, trueCounts));
    }
    if (r.remaining() != 0) {
      throw new MalformedMessageException(r.remaining() + " bytes left after the run");
    }
    Run run =
        new Run(
            sequence,
            kind,
            RunIds.startEpochMillis(runId),
            durationNanos,
            label,
            unitType,
            samplingRate,
            sites);
    return new StoredRun(runId, origin, run);
  }

  /** A copy of an encoded run with another label. */
  public static byte[] withLabel(byte[] value, Label label) throws MalformedMessageException {
    checkVersion(value);
    byte[] copy = value.clone();
    copy[LABEL_OFFSET] = (byte) label.code();
    return copy;
  }

  public static int labelCode(byte[] value) {
    return value[LABEL_OFFSET] & 0xFF;
  }

  /** The service of an encoded run, read without decoding the rest. */
  public static String service(byte[] value) throws MalformedMessageException {
    checkVersion(value);
    WireReader r = new WireReader(value, STRINGS_OFFSET, value.length - STRINGS_OFFSET);
    return r.readString("service");
  }

  static void checkVersion(byte[] value) throws MalformedMessageException {
    if (value.length < STRINGS_OFFSET || (value[0] & 0xFF) != FORMAT_VERSION) {
      throw new MalformedMessageException(
          "run value of "
              + value.length
              + " bytes does not start with format version "
              + FORMAT_VERSION);
    }
  }
}
