package dev.whyslow.storage.rocksdb.internal;

import dev.whyslow.protocol.MalformedMessageException;
import dev.whyslow.protocol.Violation;
import dev.whyslow.protocol.ViolationCause;
import dev.whyslow.protocol.WireReader;
import dev.whyslow.protocol.WireWriter;
import dev.whyslow.storage.RunOrigin;
import dev.whyslow.storage.StoredViolation;
import java.util.ArrayList;
import java.util.List;

/**
 * The value of a {@code violations} entry; the key is the violation id.
 *
 * <pre>
 * [0] format version (1), string service, string instance, string service version,
 * string unit type, i64 unit start ms, i64 detected ms, varlong elapsed ns, varlong threshold ns,
 * byte cause, string thread, varint frame count, string × frames, i64 run sequence
 * </pre>
 */
public final class ViolationCodec {
  public static final int FORMAT_VERSION = 1;

  private ViolationCodec() {}

  public static byte[] encode(RunOrigin origin, Violation v) {
    WireWriter w = new WireWriter(256);
    w.writeByte(FORMAT_VERSION)
        .writeString(origin.service())
        .writeString(origin.instance())
        .writeString(origin.serviceVersion())
        .writeString(v.unitType())
        .writeLong(v.unitStartEpochMillis())
        .writeLong(v.detectedEpochMillis())
        .writeVarLong(v.elapsedNanos())
        .writeVarLong(v.thresholdNanos())
        .writeByte(v.cause().code())
        .writeString(v.thread())
        .writeVarInt(v.stack().size());
    for (String frame : v.stack()) {
      w.writeString(frame);
    }
    w.writeLong(v.runSequence());
    return w.toByteArray();
  }

  /** The service of an encoded violation, read without decoding the rest. */
  public static String service(byte[] value) throws MalformedMessageException {
    WireReader r = new WireReader(value);
    r.readByte("violation format version");
    return r.readString("service");
  }

  public static StoredViolation decode(long id, byte[] value) throws MalformedMessageException {
    try {
      return read(id, value);
    } catch (IllegalArgumentException e) {
      throw new MalformedMessageException("violation entry: " + e.getMessage(), e);
    }
  }

  private static StoredViolation read(long id, byte[] value) throws MalformedMessageException {
    WireReader r = new WireReader(value);
    int version = r.readByte("violation format version");
    if (version != FORMAT_VERSION) {
      throw new MalformedMessageException(
          "violation format version " + version + ", this build reads " + FORMAT_VERSION);
    }
    RunOrigin origin =
        new RunOrigin(r.readString("service"), r.readString("instance"), r.readString("version"));
    String unitType = r.readString("unit type");
    long unitStart = r.readLong("unit start");
    long detected = r.readLong("detected");
    long elapsed = r.readVarLong("elapsed");
    long threshold = r.readVarLong("threshold");
    ViolationCause cause = ViolationCause.fromCode(r.readByte("cause"));
    String thread = r.readString("thread");
    int frames = r.readCount("frames", 1);
    List<String> stack = new ArrayList<>(frames);
    for (int i = 0; i < frames; i++) {
      stack.add(r.readString("frame " + i));
    }
    long runSequence = r.readLong("run sequence");
    if (r.remaining() != 0) {
      throw new MalformedMessageException(r.remaining() + " bytes left after the violation");
    }
    return new StoredViolation(
        id,
        origin,
        new Violation(
            unitStart, detected, unitType, elapsed, threshold, cause, thread, stack, runSequence));
  }
}
