package dev.whyslow.protocol;

import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;

/**
 * Bounds-checked reading of what {@link WireWriter} wrote. Every read that would run past the end,
 * and every length that cannot fit in the rest of the frame, fails with a {@link
 * MalformedMessageException} naming what was being read and where, instead of allocating or looping
 * on garbage.
 */
public final class WireReader {
  private final byte[] bytes;
  private final int end;
  private int position;

  public WireReader(byte[] bytes) {
    this(bytes, 0, bytes.length);
  }

  public WireReader(byte[] bytes, int offset, int length) {
    this.bytes = bytes;
    this.position = offset;
    this.end = offset + length;
  }

  public int remaining() {
    return end - position;
  }

  public int position() {
    return position;
  }

  public int readByte(String what) throws MalformedMessageException {
    need(1, what);
    return bytes[position++] & 0xFF;
  }

  public boolean readBoolean(String what) throws MalformedMessageException {
    int b = readByte(what);
    if (b > 1) {
      throw new MalformedMessageException(what + ": expected a boolean (0 or 1), got " + b);
    }
    return b == 1;
  }

  public int readInt(String what) throws MalformedMessageException {
    need(4, what);
    int v =
        ((bytes[position] & 0xFF) << 24)
            | ((bytes[position + 1] & 0xFF) << 16)
            | ((bytes[position + 2] & 0xFF) << 8)
            | (bytes[position + 3] & 0xFF);
    position += 4;
    return v;
  }

  public long readLong(String what) throws MalformedMessageException {
    long high = readInt(what) & 0xFFFFFFFFL;
    long low = readInt(what) & 0xFFFFFFFFL;
    return (high << 32) | low;
  }

  public double readDouble(String what) throws MalformedMessageException {
    return Double.longBitsToDouble(readLong(what));
  }

  public long readVarLong(String what) throws MalformedMessageException {
    long result = 0;
    for (int shift = 0; shift < 64; shift += 7) {
      int b = readByte(what);
      result |= (long) (b & 0x7F) << shift;
      if ((b & 0x80) == 0) {
        return result;
      }
    }
    throw new MalformedMessageException(what + ": varint longer than 10 bytes at " + position);
  }

  public int readVarInt(String what) throws MalformedMessageException {
    long v = readVarLong(what);
    if (v > 0xFFFFFFFFL) {
      throw new MalformedMessageException(what + ": value " + v + " does not fit in 32 bits");
    }
    return (int) v;
  }

  public int readSignedVarInt(String what) throws MalformedMessageException {
    int v = readVarInt(what);
    return (v >>> 1) ^ -(v & 1);
  }

  /**
   * A count of following elements, each at least {@code minBytesEach} long: rejected if the rest of
   * the frame cannot possibly hold that many, so a garbage count never causes a huge allocation.
   */
  public int readCount(String what, int minBytesEach) throws MalformedMessageException {
    long count = readVarLong(what);
    if (count < 0 || count > remaining() / Math.max(1, minBytesEach)) {
      throw new MalformedMessageException(
          what + ": count " + count + " cannot fit in the " + remaining() + " bytes left");
    }
    return (int) count;
  }

  public String readString(String what) throws MalformedMessageException {
    int length = readCount(what + " length", 1);
    try {
      String s =
          StandardCharsets.UTF_8
              .newDecoder()
              .onMalformedInput(CodingErrorAction.REPORT)
              .onUnmappableCharacter(CodingErrorAction.REPORT)
              .decode(java.nio.ByteBuffer.wrap(bytes, position, length))
              .toString();
      position += length;
      return s;
    } catch (CharacterCodingException e) {
      throw new MalformedMessageException(what + ": not valid UTF-8", e);
    }
  }

  private void need(int n, String what) throws MalformedMessageException {
    if (end - position < n) {
      throw new MalformedMessageException(
          what
              + ": truncated, needed "
              + n
              + " bytes at offset "
              + position
              + " but only "
              + (end - position)
              + " left");
    }
  }
}
