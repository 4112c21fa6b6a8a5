package dev.whyslow.daemon.diagnosis;

import java.util.Arrays;

/**
 * Open-addressing map from site keys to dense site indexes. Building a table looks a key up for
 * every (run, site) pair, tens of millions at benchmark size, so boxing {@code Long}s would
 * dominate.
 */
final class LongIntMap {
  static final int MISSING = -1;

  private long[] keys;
  private int[] values;
  private boolean[] used;
  private int size;

  LongIntMap(int expected) {
    int capacity = Integer.highestOneBit(Math.max(16, expected * 2 - 1)) << 1;
    keys = new long[capacity];
    values = new int[capacity];
    used = new boolean[capacity];
  }

  /** The value for {@code key}, or -1 if absent. */
  int get(long key) {
    int mask = keys.length - 1;
    for (int slot = mix(key) & mask; used[slot]; slot = (slot + 1) & mask) {
      if (keys[slot] == key) {
        return values[slot];
      }
    }
    return MISSING;
  }

  void put(long key, int value) {
    if ((size + 1) * 2 > keys.length) {
      rehash(keys.length * 2);
    }
    int mask = keys.length - 1;
    int slot = mix(key) & mask;
    while (used[slot] && keys[slot] != key) {
      slot = (slot + 1) & mask;
    }
    if (!used[slot]) {
      used[slot] = true;
      keys[slot] = key;
      size++;
    }
    values[slot] = value;
  }

  int size() {
    return size;
  }

  /** The keys in ascending signed order. */
  long[] sortedKeys() {
    long[] out = new long[size];
    int n = 0;
    for (int slot = 0; slot < keys.length; slot++) {
      if (used[slot]) {
        out[n++] = keys[slot];
      }
    }
    Arrays.sort(out);
    return out;
  }

  private void rehash(int capacity) {
    long[] oldKeys = keys;
    int[] oldValues = values;
    boolean[] oldUsed = used;
    keys = new long[capacity];
    values = new int[capacity];
    used = new boolean[capacity];
    size = 0;
    for (int slot = 0; slot < oldKeys.length; slot++) {
      if (oldUsed[slot]) {
        put(oldKeys[slot], oldValues[slot]);
      }
    }
  }

  private static int mix(long key) {
    // Site keys are FNV hashes already, but tests use small consecutive keys: spread them.
    long h = key * 0x9E3779B97F4A7C15L;
    return (int) (h ^ (h >>> 32));
  }
}
