package dev.whyslow.protocol;

import java.util.ArrayList;
import java.util.List;

/** The wire form of the unit messages, kept beside {@link MessageCodec} to keep each file short. */
final class UnitMessages {
  private UnitMessages() {}

  static void writeUnitStats(UnitStats m, WireWriter out) {
    out.writeLong(m.intervalStartEpochMillis()).writeVarLong(m.intervalMillis());
    out.writeVarInt(m.histograms().size());
    for (UnitHistogram h : m.histograms()) {
      out.writeString(h.unitType()).writeVarLong(h.count()).writeVarLong(h.sumNanos());
      out.writeDouble(h.sumSquaresNanos2()).writeVarLong(h.minNanos()).writeVarLong(h.maxNanos());
      out.writeVarLong(h.violations());
      for (long c : h.bucketCounts()) {
        out.writeVarLong(c);
      }
    }
  }

  static UnitStats readUnitStats(WireReader in) throws MalformedMessageException {
    long start = in.readLong("unit stats interval start");
    long length = in.readVarLong("unit stats interval length");
    int count = in.readCount("unit histogram count", 14 + UnitHistogram.BUCKETS);
    List<UnitHistogram> histograms = new ArrayList<>(count);
    for (int i = 0; i < count; i++) {
      String type = in.readString("unit type");
      long units = in.readVarLong("unit count");
      long sum = in.readVarLong("unit duration sum");
      double squares = in.readDouble("unit duration sum of squares");
      long min = in.readVarLong("unit duration min");
      long max = in.readVarLong("unit duration max");
      long violations = in.readVarLong("unit violations");
      long[] buckets = new long[UnitHistogram.BUCKETS];
      for (int b = 0; b < buckets.length; b++) {
        buckets[b] = in.readVarLong("unit bucket count");
      }
      histograms.add(new UnitHistogram(type, units, sum, squares, min, max, violations, buckets));
    }
    return new UnitStats(start, length, histograms);
  }

  static void writeViolations(ViolationBatch m, WireWriter out) {
    out.writeVarInt(m.violations().size());
    for (Violation v : m.violations()) {
      out.writeLong(v.unitStartEpochMillis()).writeLong(v.detectedEpochMillis());
      out.writeString(v.unitType()).writeVarLong(v.elapsedNanos()).writeVarLong(v.thresholdNanos());
      out.writeByte(v.cause().code()).writeString(v.thread()).writeVarInt(v.stack().size());
      for (String frame : v.stack()) {
        out.writeString(frame);
      }
      out.writeVarLong(v.runSequence());
    }
  }

  static ViolationBatch readViolations(WireReader in) throws MalformedMessageException {
    int count = in.readCount("violation count", 22);
    List<Violation> violations = new ArrayList<>(count);
    for (int i = 0; i < count; i++) {
      long start = in.readLong("violation unit start");
      long detected = in.readLong("violation detected");
      String type = in.readString("violation unit type");
      long elapsed = in.readVarLong("violation elapsed");
      long threshold = in.readVarLong("violation threshold");
      ViolationCause cause = ViolationCause.fromCode(in.readByte("violation cause"));
      String thread = in.readString("violation thread");
      int frames = in.readCount("violation frame count", 1);
      if (frames > Violation.MAX_FRAMES) {
        throw new MalformedMessageException(
            "violation has "
                + frames
                + " frames; at most "
                + Violation.MAX_FRAMES
                + " are allowed");
      }
      List<String> stack = new ArrayList<>(frames);
      for (int f = 0; f < frames; f++) {
        stack.add(in.readString("violation frame"));
      }
      long run = in.readVarLong("violation run sequence");
      violations.add(
          new Violation(start, detected, type, elapsed, threshold, cause, thread, stack, run));
    }
    return new ViolationBatch(violations);
  }

  static void writeUnitTypes(UnitTypeBatch m, WireWriter out) {
    out.writeVarInt(m.types().size());
    for (UnitTypeInfo t : m.types()) {
      out.writeString(t.name()).writeString(t.entryPoint());
      writeStrings(t.contexts(), out);
      writeStrings(t.guardMethods(), out);
    }
  }

  static UnitTypeBatch readUnitTypes(WireReader in) throws MalformedMessageException {
    int count = in.readCount("unit type count", 4);
    List<UnitTypeInfo> types = new ArrayList<>(count);
    for (int i = 0; i < count; i++) {
      String name = in.readString("unit type name");
      String entry = in.readString("unit type entry point");
      List<String> contexts = readStrings("unit type context", in);
      List<String> guards = readStrings("unit type guard method", in);
      types.add(new UnitTypeInfo(name, entry, contexts, guards));
    }
    return new UnitTypeBatch(types);
  }

  static void writeThresholds(SetThresholds m, WireWriter out) {
    out.writeVarInt(m.thresholds().size());
    for (Threshold t : m.thresholds()) {
      out.writeString(t.unitType()).writeVarLong(t.thresholdNanos()).writeVarLong(t.basedOnCount());
    }
  }

  static SetThresholds readThresholds(WireReader in) throws MalformedMessageException {
    int count = in.readCount("threshold count", 3);
    List<Threshold> thresholds = new ArrayList<>(count);
    for (int i = 0; i < count; i++) {
      thresholds.add(
          new Threshold(
              in.readString("threshold unit type"),
              in.readVarLong("threshold nanos"),
              in.readVarLong("threshold count")));
    }
    return new SetThresholds(thresholds);
  }

  private static void writeStrings(List<String> strings, WireWriter out) {
    out.writeVarInt(strings.size());
    for (String s : strings) {
      out.writeString(s);
    }
  }

  private static List<String> readStrings(String what, WireReader in)
      throws MalformedMessageException {
    int count = in.readCount(what + " count", 1);
    List<String> strings = new ArrayList<>(count);
    for (int i = 0; i < count; i++) {
      strings.add(in.readString(what));
    }
    return strings;
  }
}
