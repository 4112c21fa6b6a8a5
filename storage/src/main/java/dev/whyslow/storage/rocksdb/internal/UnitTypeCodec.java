package dev.whyslow.storage.rocksdb.internal;

import dev.whyslow.protocol.MalformedMessageException;
import dev.whyslow.protocol.UnitTypeInfo;
import dev.whyslow.protocol.WireReader;
import dev.whyslow.protocol.WireWriter;
import java.util.ArrayList;
import java.util.List;

/**
 * The value of a {@code unit_types} entry (key: service, unit type name): format version (1),
 * string entry point, varint context count, strings, varint guard method count, strings.
 */
public final class UnitTypeCodec {
  public static final int FORMAT_VERSION = 1;

  private UnitTypeCodec() {}

  public static byte[] encode(UnitTypeInfo info) {
    WireWriter w = new WireWriter(128);
    w.writeByte(FORMAT_VERSION).writeString(info.entryPoint());
    writeList(w, info.contexts());
    writeList(w, info.guardMethods());
    return w.toByteArray();
  }

  public static UnitTypeInfo decode(String name, byte[] value) throws MalformedMessageException {
    WireReader r = new WireReader(value);
    int version = r.readByte("unit type format version");
    if (version != FORMAT_VERSION) {
      throw new MalformedMessageException(
          "unit type format version " + version + ", this build reads " + FORMAT_VERSION);
    }
    String entryPoint = r.readString("entry point");
    List<String> contexts = readList(r, "contexts");
    List<String> guards = readList(r, "guard methods");
    return new UnitTypeInfo(name, entryPoint, contexts, guards);
  }

  private static void writeList(WireWriter w, List<String> values) {
    w.writeVarInt(values.size());
    for (String v : values) {
      w.writeString(v);
    }
  }

  private static List<String> readList(WireReader r, String what) throws MalformedMessageException {
    int n = r.readCount(what, 1);
    List<String> out = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      out.add(r.readString(what + " " + i));
    }
    return out;
  }
}
