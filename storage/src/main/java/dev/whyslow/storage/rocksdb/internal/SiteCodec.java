package dev.whyslow.storage.rocksdb.internal;

import dev.whyslow.protocol.MalformedMessageException;
import dev.whyslow.protocol.Site;
import dev.whyslow.protocol.SiteKind;
import dev.whyslow.protocol.WireReader;
import dev.whyslow.protocol.WireWriter;

/**
 * The value of a {@code sites} entry; the site key is in the entry's key.
 *
 * <pre>
 * [0] format version (1), string class, string method, string descriptor, string source file,
 * zig-zag varint line, byte kind, zig-zag varint loop id, string detail
 * </pre>
 */
public final class SiteCodec {
  public static final int FORMAT_VERSION = 1;

  private SiteCodec() {}

  public static byte[] encode(Site site, WireWriter w) {
    w.reset();
    w.writeByte(FORMAT_VERSION)
        .writeString(site.className())
        .writeString(site.methodName())
        .writeString(site.descriptor())
        .writeString(site.sourceFile())
        .writeSignedVarInt(site.line())
        .writeByte(site.kind().code())
        .writeSignedVarInt(site.loopId())
        .writeString(site.detail());
    return w.toByteArray();
  }

  public static Site decode(long siteKey, byte[] value) throws MalformedMessageException {
    try {
      return read(siteKey, value);
    } catch (IllegalArgumentException e) {
      // An out-of-range code or a value the record's constructor rejects: damage, not input.
      throw new MalformedMessageException(e.getMessage(), e);
    }
  }

  private static Site read(long siteKey, byte[] value) throws MalformedMessageException {
    WireReader r = new WireReader(value);
    int version = r.readByte("site format version");
    if (version != FORMAT_VERSION) {
      throw new MalformedMessageException(
          "site format version " + version + ", this build reads " + FORMAT_VERSION);
    }
    Site site =
        new Site(
            siteKey,
            r.readString("class"),
            r.readString("method"),
            r.readString("descriptor"),
            r.readString("source file"),
            r.readSignedVarInt("line"),
            SiteKind.fromCode(r.readByte("kind")),
            r.readSignedVarInt("loop id"),
            r.readString("detail"));
    if (r.remaining() != 0) {
      throw new MalformedMessageException(r.remaining() + " bytes left after the site");
    }
    return site;
  }
}
