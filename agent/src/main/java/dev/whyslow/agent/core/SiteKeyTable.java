package dev.whyslow.agent.core;

/**
 * The registered sites by their stable 64-bit key: an open-addressing table with linear probing.
 * Not a {@code HashMap<Long, ...>}: boxed keys would put {@code Long} into the receiver profile of
 * the JDK's {@code HashMap.hash}, which every map of the host shares, while the agent registers the
 * sites of the classes the host loads at start-up (on JDK 25 such profiles cost a {@code
 * String}-keyed map its inlined {@code hashCode}). Not thread-safe; {@link SiteRegistry} holds its
 * lock around every call.
 */
final class SiteKeyTable {
  private long[] keys = new long[64];
  private SiteRegistry.Entry[] entries = new SiteRegistry.Entry[64];
  private int size;

  /** The entry registered under {@code key}, or {@code null}. */
  SiteRegistry.Entry get(long key) {
    int mask = keys.length - 1;
    for (int i = slotOf(key, mask); entries[i] != null; i = (i + 1) & mask) {
      if (keys[i] == key) {
        return entries[i];
      }
    }
    return null;
  }

  /** Registers {@code entry} under {@code key}, which must not be registered yet. */
  void put(long key, SiteRegistry.Entry entry) {
    if (2 * (size + 1) > keys.length) {
      grow();
    }
    insert(keys, entries, key, entry);
    size++;
  }

  int size() {
    return size;
  }

  private void grow() {
    long[] oldKeys = keys;
    SiteRegistry.Entry[] oldEntries = entries;
    keys = new long[oldKeys.length * 2];
    entries = new SiteRegistry.Entry[oldKeys.length * 2];
    for (int i = 0; i < oldKeys.length; i++) {
      if (oldEntries[i] != null) {
        insert(keys, entries, oldKeys[i], oldEntries[i]);
      }
    }
  }

  private static void insert(
      long[] keys, SiteRegistry.Entry[] entries, long key, SiteRegistry.Entry entry) {
    int mask = keys.length - 1;
    int i = slotOf(key, mask);
    while (entries[i] != null) {
      i = (i + 1) & mask;
    }
    keys[i] = key;
    entries[i] = entry;
  }

  /**
   * Site keys are hashes already; folding the high half in keeps keys that differ only there apart.
   */
  private static int slotOf(long key, int mask) {
    return (int) (key ^ (key >>> 32)) & mask;
  }
}
