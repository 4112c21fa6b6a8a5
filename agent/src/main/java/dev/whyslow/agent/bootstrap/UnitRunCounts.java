package dev.whyslow.agent.bootstrap;

/**
 * The counters of one unit run: a small open-addressing map from slot to count, reused by its
 * thread for every unit. Only the owning thread's sampled path writes it and only that thread reads
 * it (at unit end), so it needs no atomics; clearing touches only the slots a unit used.
 */
public final class UnitRunCounts extends RunCounts {
  private static final int EMPTY = -1;

  private int[] keys;
  private long[] counts;
  private int[] used; // indexes into keys, in insertion order
  private int size;

  public UnitRunCounts() {
    allocate(16);
  }

  private void allocate(int capacity) {
    keys = new int[capacity];
    counts = new long[capacity];
    used = new int[capacity];
    for (int i = 0; i < capacity; i++) {
      keys[i] = EMPTY;
    }
    size = 0;
  }

  @Override
  public void increment(int slot) {
    if (slot < 0) {
      throw new IndexOutOfBoundsException(slot);
    }
    if ((size + 1) * 2 > keys.length) {
      grow();
    }
    int i = find(slot);
    if (keys[i] == EMPTY) {
      keys[i] = slot;
      used[size++] = i;
    }
    counts[i]++;
  }

  @Override
  public long get(int slot) {
    int i = find(slot);
    return keys[i] == slot ? counts[i] : 0L;
  }

  @Override
  public int capacity() {
    return Integer.MAX_VALUE;
  }

  /** Distinct slots counted since the last {@link #clear}. */
  public int size() {
    return size;
  }

  /**
   * Every slot counted and its count, as {@code [slot, count, slot, count, ...]} in the order the
   * slots were first counted: one small array, so a unit's end can hand its counts to another
   * thread and {@link #clear} for the next unit.
   */
  public long[] toSlotCountPairs() {
    long[] pairs = new long[2 * size];
    for (int n = 0; n < size; n++) {
      int i = used[n];
      pairs[2 * n] = keys[i];
      pairs[2 * n + 1] = counts[i];
    }
    return pairs;
  }

  /** Forgets every count, touching only the slots that were used. */
  public void clear() {
    for (int n = 0; n < size; n++) {
      int i = used[n];
      keys[i] = EMPTY;
      counts[i] = 0;
    }
    size = 0;
  }

  private int find(int slot) {
    int mask = keys.length - 1;
    int i = (slot * 0x9E3779B1) >>> 7 & mask;
    while (keys[i] != EMPTY && keys[i] != slot) {
      i = (i + 1) & mask;
    }
    return i;
  }

  private void grow() {
    int[] oldKeys = keys;
    long[] oldCounts = counts;
    int[] oldUsed = used;
    int oldSize = size;
    allocate(oldKeys.length * 2);
    for (int n = 0; n < oldSize; n++) {
      int j = oldUsed[n];
      int i = find(oldKeys[j]);
      keys[i] = oldKeys[j];
      counts[i] = oldCounts[j];
      used[size++] = i;
    }
  }
}
