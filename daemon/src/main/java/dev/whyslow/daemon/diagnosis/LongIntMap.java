package dev.whyslow.daemon.diagnosis;

/**
 * Open-addressing map from site keys to ints (dense site indexes). Building a table looks a key up
 * for every (run, site) pair, tens of millions at benchmark size, so boxing {@code Long}s would
 * dominate; keys and values share one array so that a probe touches one cache line.
 */
final class LongIntMap {
  static final int MISSING = -1;

  // slots[2i] is a key, slots[2i+1] its value + 1 (0 marks an empty slot, since keys can be 0).
  private long[] slots;
  private int size;

  LongIntMap(int expected) {
    int capacity = Integer.highestOneBit(Math.max(16, expected * 2 - 1)) << 1;
    slots = new long[capacity * 2];
  }

  /** The value for {@code key}, or {@link #MISSING}. */
  int get(long key) {
    int mask = slots.length / 2 - 1;
    for (int slot = mix(key) & mask; ; slot = (slot + 1) & mask) {
      long stored = slots[2 * slot + 1];
      if (stored == 0) {
        return MISSING;
      }
      if (slots[2 * slot] == key) {
        return (int) (stored - 1);
      }
    }
  }

  void put(long key, int value) {
    if (value == MISSING) {
      throw new IllegalArgumentException("-1 marks a missing key and cannot be stored");
    }
    if ((size + 1) * 4 > slots.length) {
      rehash(slots.length);
    }
    int mask = slots.length / 2 - 1;
    int slot = mix(key) & mask;
    while (slots[2 * slot + 1] != 0 && slots[2 * slot] != key) {
      slot = (slot + 1) & mask;
    }
    if (slots[2 * slot + 1] == 0) {
      slots[2 * slot] = key;
      size++;
    }
    slots[2 * slot + 1] = (long) value + 1;
  }

  int size() {
    return size;
  }

  private void rehash(int capacity) {
    long[] old = slots;
    slots = new long[capacity * 2];
    size = 0;
    for (int slot = 0; slot < old.length / 2; slot++) {
      if (old[2 * slot + 1] != 0) {
        put(old[2 * slot], (int) (old[2 * slot + 1] - 1));
      }
    }
  }

  private static int mix(long key) {
    // Site keys are FNV hashes already, but tests use small consecutive keys: spread them.
    long h = key * 0x9E3779B97F4A7C15L;
    return (int) (h ^ (h >>> 32));
  }
}
