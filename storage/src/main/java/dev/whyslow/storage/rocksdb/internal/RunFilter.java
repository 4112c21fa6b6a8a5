package dev.whyslow.storage.rocksdb.internal;

import dev.whyslow.storage.RunQuery;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Optional;

/**
 * A {@link RunQuery}'s filters (all but the time window, which is the key range) applied to encoded
 * runs without decoding them: label and kind are single bytes, names are compared as UTF-8 in
 * place. Scans over many non-matching runs therefore allocate nothing per run.
 */
public final class RunFilter {
  private final int label;
  private final int kind;
  private final byte[][] names;

  public RunFilter(RunQuery query) {
    this.label = query.label().map(l -> l.code()).orElse(-1);
    this.kind = query.kind().map(k -> k.code()).orElse(-1);
    this.names =
        new byte[][] {
          utf8(query.service()),
          utf8(query.instance()),
          utf8(query.serviceVersion()),
          utf8(query.unitType())
        };
  }

  /**
   * Whether the encoded run matches. Values this filter cannot read count as matches, so that
   * decoding them reports the damage instead of a query silently leaving runs out.
   */
  public boolean matches(byte[] value) {
    if (value.length < RunCodec.STRINGS_OFFSET || value[0] != RunCodec.FORMAT_VERSION) {
      return true;
    }
    if (label >= 0 && (value[RunCodec.LABEL_OFFSET] & 0xFF) != label) {
      return false;
    }
    if (kind >= 0 && (value[RunCodec.KIND_OFFSET] & 0xFF) != kind) {
      return false;
    }
    int p = RunCodec.STRINGS_OFFSET;
    for (byte[] wanted : names) {
      long length = 0;
      int shift = 0;
      int b;
      do {
        if (p >= value.length || shift > 28) {
          return true; // truncated: let decoding report it
        }
        b = value[p++];
        length |= (long) (b & 0x7F) << shift;
        shift += 7;
      } while ((b & 0x80) != 0);
      if (length > value.length - p) {
        return true; // truncated: let decoding report it
      }
      int end = p + (int) length;
      if (wanted != null && !Arrays.equals(value, p, end, wanted, 0, wanted.length)) {
        return false;
      }
      p = end;
    }
    return true;
  }

  private static byte[] utf8(Optional<String> name) {
    return name.map(s -> s.getBytes(StandardCharsets.UTF_8)).orElse(null);
  }
}
