package dev.whyslow.protocol;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/** A growable big-endian byte buffer with varints, the writing half of {@link WireReader}. */
public final class WireWriter {
  private byte[] bytes;
  private int size;

  public WireWriter(int initialCapacity) {
    bytes = new byte[Math.max(16, initialCapacity)];
  }

  public int size() {
    return size;
  }

  public void reset() {
    size = 0;
  }

  public byte[] toByteArray() {
    return Arrays.copyOf(bytes, size);
  }

  /** The internal array; only the first {@link #size()} bytes are meaningful. */
  public byte[] array() {
    return bytes;
  }

  public WireWriter writeByte(int v) {
    ensure(1);
    bytes[size++] = (byte) v;
    return this;
  }

  public WireWriter writeBoolean(boolean v) {
    return writeByte(v ? 1 : 0);
  }

  public WireWriter writeInt(int v) {
    ensure(4);
    bytes[size++] = (byte) (v >>> 24);
    bytes[size++] = (byte) (v >>> 16);
    bytes[size++] = (byte) (v >>> 8);
    bytes[size++] = (byte) v;
    return this;
  }

  public WireWriter writeLong(long v) {
    writeInt((int) (v >>> 32));
    return writeInt((int) v);
  }

  public WireWriter writeDouble(double v) {
    return writeLong(Double.doubleToLongBits(v));
  }

  /** Unsigned LEB128: small non-negative numbers take one byte. */
  public WireWriter writeVarLong(long v) {
    ensure(10);
    while ((v & ~0x7FL) != 0) {
      bytes[size++] = (byte) ((v & 0x7F) | 0x80);
      v >>>= 7;
    }
    bytes[size++] = (byte) v;
    return this;
  }

  public WireWriter writeVarInt(int v) {
    return writeVarLong(v & 0xFFFFFFFFL);
  }

  /** Zig-zag varint for values that may be negative (e.g. line -1). */
  public WireWriter writeSignedVarInt(int v) {
    return writeVarInt((v << 1) ^ (v >> 31));
  }

  public WireWriter writeString(String s) {
    byte[] utf8 = s.getBytes(StandardCharsets.UTF_8);
    writeVarInt(utf8.length);
    ensure(utf8.length);
    System.arraycopy(utf8, 0, bytes, size, utf8.length);
    size += utf8.length;
    return this;
  }

  private void ensure(int more) {
    if (size + more > bytes.length) {
      long wanted = Math.max((long) bytes.length * 2, (long) size + more);
      if (wanted > Integer.MAX_VALUE - 8) {
        throw new IllegalStateException("message larger than 2 GiB");
      }
      bytes = Arrays.copyOf(bytes, (int) wanted);
    }
  }
}
