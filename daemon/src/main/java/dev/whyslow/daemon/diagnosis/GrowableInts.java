package dev.whyslow.daemon.diagnosis;

import java.util.Arrays;

/** An append-only int array, so the table's CSR columns never box. */
final class GrowableInts {
  private int[] values;
  private int size;

  GrowableInts(int initialCapacity) {
    values = new int[Math.max(4, initialCapacity)];
  }

  void add(int value) {
    if (size == values.length) {
      grow((long) size + 1);
    }
    values[size++] = value;
  }

  int get(int index) {
    return values[index];
  }

  void set(int index, int value) {
    values[index] = value;
  }

  int size() {
    return size;
  }

  /** Makes room for {@code more} further values at once, so big columns grow by one copy. */
  void reserve(int more) {
    if (values.length - size < more) {
      grow((long) size + more);
    }
  }

  /** The values; the backing array itself when it is exactly full, so the caller must own this. */
  int[] toArray() {
    return size == values.length ? values : Arrays.copyOf(values, size);
  }

  private void grow(long minCapacity) {
    // Grow by half rather than double: the biggest columns hold tens of millions of entries.
    long wanted = Math.max(minCapacity, values.length + (values.length >> 1));
    if (wanted > Integer.MAX_VALUE - 8) {
      throw new IllegalStateException(
          "predicate table column would exceed "
              + (Integer.MAX_VALUE - 8)
              + " entries; diagnose a shorter window or fewer runs");
    }
    values = Arrays.copyOf(values, (int) wanted);
  }
}
