package dev.whyslow.agent.bootstrap;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * Counters for a long-lived run (the process run): chunks of {@value #CHUNK_SIZE} atomic longs,
 * allocated when a slot in them is first touched, so memory grows with the sites actually
 * instrumented and is bounded by the capacity. Uses {@link VarHandle}s rather than {@code
 * java.util.concurrent.atomic} because {@code java.util} may itself be instrumented.
 */
public final class ChunkedRunCounts extends RunCounts {
  static final int CHUNK_BITS = 12;
  static final int CHUNK_SIZE = 1 << CHUNK_BITS;
  private static final int CHUNK_MASK = CHUNK_SIZE - 1;

  private static final VarHandle CHUNKS = MethodHandles.arrayElementVarHandle(long[][].class);
  private static final VarHandle LONGS = MethodHandles.arrayElementVarHandle(long[].class);

  private final long[][] chunks;
  private final int capacity;

  /**
   * @param capacity number of slots, at least 1
   */
  public ChunkedRunCounts(int capacity) {
    if (capacity < 1) {
      throw new IllegalArgumentException(
          new StringBuilder("capacity must be >= 1, was ").append(capacity).toString());
    }
    this.capacity = capacity;
    this.chunks = new long[(capacity + CHUNK_SIZE - 1) >>> CHUNK_BITS][];
  }

  @Override
  public void increment(int slot) {
    if (slot >= capacity) {
      throw new IndexOutOfBoundsException(slot);
    }
    LONGS.getAndAdd(chunk(slot >>> CHUNK_BITS), slot & CHUNK_MASK, 1L);
  }

  @Override
  public long get(int slot) {
    if (slot < 0 || slot >= capacity) {
      throw new IndexOutOfBoundsException(slot);
    }
    long[] chunk = (long[]) CHUNKS.getAcquire(chunks, slot >>> CHUNK_BITS);
    return chunk == null ? 0L : (long) LONGS.getVolatile(chunk, slot & CHUNK_MASK);
  }

  @Override
  public int capacity() {
    return capacity;
  }

  /** Makes sure the chunk holding {@code slot} exists, so later increments never allocate. */
  public void reserve(int slot) {
    chunk(slot >>> CHUNK_BITS);
  }

  private long[] chunk(int index) {
    long[] chunk = (long[]) CHUNKS.getAcquire(chunks, index);
    if (chunk != null) {
      return chunk;
    }
    long[] fresh = new long[CHUNK_SIZE];
    long[] witness = (long[]) CHUNKS.compareAndExchangeRelease(chunks, index, null, fresh);
    return witness == null ? fresh : witness;
  }
}
