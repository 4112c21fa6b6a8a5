package dev.whyslow.agent.transport;

import dev.whyslow.protocol.Run;
import dev.whyslow.protocol.Site;
import dev.whyslow.protocol.SiteCounts;

/**
 * Encoded sizes of runs and sites without encoding them, so batches can be cut below the daemon's
 * frame limit before anything is written. Mirrors {@code MessageCodec}'s layout; {@code
 * WireSizesTest} checks it against the codec, and the encoder still refuses oversized frames.
 */
final class WireSizes {
  /** Type byte plus the largest varint count. */
  static final int BATCH_HEADER_BYTES = 1 + 5;

  private WireSizes() {}

  static int run(Run run) {
    long size = varLong(run.sequence()) + 1 + 8 + varLong(run.durationNanos()) + 1;
    size += string(run.unitType()) + 8 + varInt(run.sites().size());
    for (SiteCounts counts : run.sites()) {
      long[] trueCounts = counts.trueCounts();
      size += 8 + varLong(counts.observed()) + varInt(trueCounts.length);
      for (long c : trueCounts) {
        size += varLong(c);
      }
    }
    return saturate(size);
  }

  static int site(Site site) {
    long size = 8L + string(site.className()) + string(site.methodName());
    size += string(site.descriptor()) + string(site.sourceFile());
    size += signedVarInt(site.line()) + 1 + signedVarInt(site.loopId()) + string(site.detail());
    return saturate(size);
  }

  static int varLong(long v) {
    return v == 0 ? 1 : (64 - Long.numberOfLeadingZeros(v) + 6) / 7;
  }

  static int varInt(int v) {
    return varLong(v & 0xFFFFFFFFL);
  }

  static int signedVarInt(int v) {
    return varInt((v << 1) ^ (v >> 31));
  }

  static long string(String s) {
    long utf8 = utf8Length(s);
    return varLong(utf8) + utf8;
  }

  /** What {@code String.getBytes(UTF_8)} produces, counted; lone surrogates become one '?'. */
  static long utf8Length(String s) {
    long length = 0;
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c < 0x80) {
        length += 1;
      } else if (c < 0x800) {
        length += 2;
      } else if (Character.isHighSurrogate(c)
          && i + 1 < s.length()
          && Character.isLowSurrogate(s.charAt(i + 1))) {
        length += 4;
        i++;
      } else if (Character.isSurrogate(c)) {
        length += 1;
      } else {
        length += 3;
      }
    }
    return length;
  }

  private static int saturate(long size) {
    return (int) Math.min(Integer.MAX_VALUE, size);
  }
}
