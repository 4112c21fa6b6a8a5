package dev.whyslow.protocol;

import java.util.ArrayList;
import java.util.List;

/**
 * Encodes and decodes messages. A frame body is one type byte followed by the payload; on the wire
 * each body is preceded by its length as a 4-byte big-endian int ({@link #encodeFrame}). Decoding
 * rejects truncated bodies, trailing bytes, unknown types and out-of-range values with a {@link
 * MalformedMessageException} that says what was wrong.
 */
public final class MessageCodec {
  /** Bumped on any incompatible change; the daemon refuses other versions in the handshake. */
  public static final int PROTOCOL_VERSION = 2;

  /** Length of the frame-length prefix. */
  public static final int LENGTH_PREFIX_BYTES = 4;

  /** Largest frame body accepted by default: 16 MiB. */
  public static final int DEFAULT_MAX_FRAME_BYTES = 16 * 1024 * 1024;

  static final int HELLO = 1;
  static final int HELLO_OK = 2;
  static final int ERROR = 3;
  static final int SITES = 4;
  static final int RUNS = 5;
  static final int AGENT_STATS = 6;
  static final int SET_SAMPLING_RATE = 7;
  static final int SET_ENABLED = 8;
  static final int UNIT_STATS = 9;
  static final int VIOLATIONS = 10;
  static final int UNIT_TYPES = 11;
  static final int SET_THRESHOLDS = 12;

  private MessageCodec() {}

  /** The frame body: type byte and payload, without the length prefix. */
  public static byte[] encode(Message message) {
    WireWriter out = new WireWriter(64);
    write(message, out);
    return out.toByteArray();
  }

  /** Length prefix, type byte and payload: what goes on the wire. */
  public static byte[] encodeFrame(Message message) {
    WireWriter out = new WireWriter(64);
    out.writeInt(0);
    write(message, out);
    byte[] frame = out.toByteArray();
    int length = frame.length - LENGTH_PREFIX_BYTES;
    frame[0] = (byte) (length >>> 24);
    frame[1] = (byte) (length >>> 16);
    frame[2] = (byte) (length >>> 8);
    frame[3] = (byte) length;
    return frame;
  }

  /** Appends the frame body of {@code message} to {@code out}. */
  public static void write(Message message, WireWriter out) {
    if (message instanceof Hello m) {
      out.writeByte(HELLO).writeVarInt(m.protocolVersion()).writeString(m.service());
      out.writeString(m.instance()).writeString(m.serviceVersion()).writeString(m.agentVersion());
      out.writeString(m.token());
    } else if (message instanceof HelloOk m) {
      out.writeByte(HELLO_OK).writeString(m.daemonVersion()).writeVarInt(m.maxFrameBytes());
    } else if (message instanceof ErrorMessage m) {
      out.writeByte(ERROR).writeVarInt(m.code().code()).writeString(m.message());
      out.writeBoolean(m.fatal());
    } else if (message instanceof SiteBatch m) {
      out.writeByte(SITES).writeVarInt(m.sites().size());
      for (Site site : m.sites()) {
        writeSite(site, out);
      }
    } else if (message instanceof RunBatch m) {
      out.writeByte(RUNS).writeVarInt(m.runs().size());
      for (Run run : m.runs()) {
        writeRun(run, out);
      }
    } else if (message instanceof AgentStats m) {
      out.writeByte(AGENT_STATS).writeLong(m.timestampEpochMillis());
      out.writeVarLong(m.samplesRecorded()).writeVarLong(m.sitesRegistered());
      out.writeVarLong(m.classesInstrumented()).writeVarLong(m.instrumentationErrors());
      out.writeVarLong(m.runsRecorded()).writeVarLong(m.runsSent()).writeVarLong(m.runsDropped());
      out.writeVarLong(m.agentErrors()).writeVarLong(m.reconnects()).writeVarLong(m.bytesSent());
    } else if (message instanceof SetSamplingRate m) {
      out.writeByte(SET_SAMPLING_RATE).writeDouble(m.rate());
    } else if (message instanceof SetEnabled m) {
      out.writeByte(SET_ENABLED).writeBoolean(m.enabled());
    } else if (message instanceof UnitStats m) {
      UnitMessages.writeUnitStats(m, out.writeByte(UNIT_STATS));
    } else if (message instanceof ViolationBatch m) {
      UnitMessages.writeViolations(m, out.writeByte(VIOLATIONS));
    } else if (message instanceof UnitTypeBatch m) {
      UnitMessages.writeUnitTypes(m, out.writeByte(UNIT_TYPES));
    } else if (message instanceof SetThresholds m) {
      UnitMessages.writeThresholds(m, out.writeByte(SET_THRESHOLDS));
    } else {
      throw new IllegalArgumentException("no encoding for " + message.getClass().getName());
    }
  }

  public static Message decode(byte[] body) throws MalformedMessageException {
    return decode(body, 0, body.length);
  }

  /** Decodes one frame body (type byte and payload, no length prefix). */
  public static Message decode(byte[] bytes, int offset, int length)
      throws MalformedMessageException {
    WireReader in = new WireReader(bytes, offset, length);
    int type = in.readByte("message type");
    Message message;
    try {
      message = read(type, in);
    } catch (IllegalArgumentException | NullPointerException e) {
      throw new MalformedMessageException(
          typeName(type) + " message has an invalid value: " + e.getMessage(), e);
    }
    if (in.remaining() != 0) {
      throw new MalformedMessageException(
          typeName(type) + " message has " + in.remaining() + " unexpected trailing bytes");
    }
    return message;
  }

  private static Message read(int type, WireReader in) throws MalformedMessageException {
    switch (type) {
      case HELLO:
        return new Hello(
            in.readVarInt("hello protocol version"),
            in.readString("hello service"),
            in.readString("hello instance"),
            in.readString("hello service version"),
            in.readString("hello agent version"),
            in.readString("hello token"));
      case HELLO_OK:
        return new HelloOk(in.readString("daemon version"), in.readVarInt("max frame bytes"));
      case ERROR:
        return new ErrorMessage(
            ErrorCode.fromCode(in.readVarInt("error code")),
            in.readString("error message"),
            in.readBoolean("error fatal"));
      case SITES:
        {
          int count = in.readCount("site count", 14);
          List<Site> sites = new ArrayList<>(count);
          for (int i = 0; i < count; i++) {
            sites.add(readSite(in));
          }
          return new SiteBatch(sites);
        }
      case RUNS:
        {
          int count = in.readCount("run count", 24);
          List<Run> runs = new ArrayList<>(count);
          for (int i = 0; i < count; i++) {
            runs.add(readRun(in));
          }
          return new RunBatch(runs);
        }
      case AGENT_STATS:
        return new AgentStats(
            in.readLong("stats timestamp"),
            in.readVarLong("samples recorded"),
            in.readVarLong("sites registered"),
            in.readVarLong("classes instrumented"),
            in.readVarLong("instrumentation errors"),
            in.readVarLong("runs recorded"),
            in.readVarLong("runs sent"),
            in.readVarLong("runs dropped"),
            in.readVarLong("agent errors"),
            in.readVarLong("reconnects"),
            in.readVarLong("bytes sent"));
      case SET_SAMPLING_RATE:
        return new SetSamplingRate(in.readDouble("sampling rate"));
      case SET_ENABLED:
        return new SetEnabled(in.readBoolean("enabled"));
      case UNIT_STATS:
        return UnitMessages.readUnitStats(in);
      case VIOLATIONS:
        return UnitMessages.readViolations(in);
      case UNIT_TYPES:
        return UnitMessages.readUnitTypes(in);
      case SET_THRESHOLDS:
        return UnitMessages.readThresholds(in);
      default:
        throw new MalformedMessageException("unknown message type " + type);
    }
  }

  private static void writeSite(Site site, WireWriter out) {
    out.writeLong(site.key()).writeString(site.className()).writeString(site.methodName());
    out.writeString(site.descriptor()).writeString(site.sourceFile());
    out.writeSignedVarInt(site.line()).writeByte(site.kind().code());
    out.writeSignedVarInt(site.loopId()).writeString(site.detail());
  }

  private static Site readSite(WireReader in) throws MalformedMessageException {
    return new Site(
        in.readLong("site key"),
        in.readString("site class"),
        in.readString("site method"),
        in.readString("site descriptor"),
        in.readString("site source file"),
        in.readSignedVarInt("site line"),
        SiteKind.fromCode(in.readByte("site kind")),
        in.readSignedVarInt("site loop id"),
        in.readString("site detail"));
  }

  private static void writeRun(Run run, WireWriter out) {
    out.writeVarLong(run.sequence()).writeByte(run.kind().code());
    out.writeLong(run.startEpochMillis()).writeVarLong(run.durationNanos());
    out.writeByte(run.label().code()).writeString(run.unitType()).writeDouble(run.samplingRate());
    out.writeVarInt(run.sites().size());
    for (SiteCounts counts : run.sites()) {
      out.writeLong(counts.siteKey()).writeVarLong(counts.observed());
      long[] trueCounts = counts.trueCounts();
      out.writeVarInt(trueCounts.length);
      for (long c : trueCounts) {
        out.writeVarLong(c);
      }
    }
  }

  private static Run readRun(WireReader in) throws MalformedMessageException {
    long sequence = in.readVarLong("run sequence");
    RunKind kind = RunKind.fromCode(in.readByte("run kind"));
    long start = in.readLong("run start");
    long duration = in.readVarLong("run duration");
    Label label = Label.fromCode(in.readByte("run label"));
    String unitType = in.readString("run unit type");
    double rate = in.readDouble("run sampling rate");
    int siteCount = in.readCount("run site count", 10);
    List<SiteCounts> sites = new ArrayList<>(siteCount);
    for (int i = 0; i < siteCount; i++) {
      long key = in.readLong("site counts key");
      long observed = in.readVarLong("site observed count");
      int predicates = in.readCount("site predicate count", 1);
      if (predicates > MAX_PREDICATES_PER_SITE) {
        throw new MalformedMessageException(
            "site "
                + SiteKeys.format(key)
                + " has "
                + predicates
                + " predicates; at most "
                + MAX_PREDICATES_PER_SITE
                + " are defined");
      }
      long[] trueCounts = new long[predicates];
      for (int p = 0; p < predicates; p++) {
        trueCounts[p] = in.readVarLong("site true count");
      }
      sites.add(new SiteCounts(key, observed, trueCounts));
    }
    return new Run(sequence, kind, start, duration, label, unitType, rate, sites);
  }

  /** The most predicates any {@link SiteKind} has. */
  public static final int MAX_PREDICATES_PER_SITE = 6;

  static String typeName(int type) {
    switch (type) {
      case HELLO:
        return "hello";
      case HELLO_OK:
        return "hello-ok";
      case ERROR:
        return "error";
      case SITES:
        return "sites";
      case RUNS:
        return "runs";
      case AGENT_STATS:
        return "agent-stats";
      case SET_SAMPLING_RATE:
        return "set-sampling-rate";
      case SET_ENABLED:
        return "set-enabled";
      case UNIT_STATS:
        return "unit-stats";
      case VIOLATIONS:
        return "violations";
      case UNIT_TYPES:
        return "unit-types";
      case SET_THRESHOLDS:
        return "set-thresholds";
      default:
        return "type-" + type;
    }
  }
}
