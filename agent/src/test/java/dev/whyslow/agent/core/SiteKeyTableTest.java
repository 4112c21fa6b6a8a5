package dev.whyslow.agent.core;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class SiteKeyTableTest {
  private static SiteRegistry.Entry entry(int index) {
    return new SiteRegistry.Entry(index, index * 3, TestSites.branch("C", index));
  }

  @Test
  void findsEveryKeyPutThroughManyGrowths() {
    SiteKeyTable table = new SiteKeyTable();
    for (int i = 0; i < 5_000; i++) {
      table.put(i * 0x9E3779B97F4A7C15L, entry(i));
    }
    assertThat(table.size()).isEqualTo(5_000);
    for (int i = 0; i < 5_000; i++) {
      assertThat(table.get(i * 0x9E3779B97F4A7C15L).index()).isEqualTo(i);
    }
    assertThat(table.get(5_000 * 0x9E3779B97F4A7C15L)).isNull();
  }

  @Test
  void keepsKeysApartThatShareTheirSlotOrAreZero() {
    SiteKeyTable table = new SiteKeyTable();
    // The same low bits and the same folded slot: every one of these probes past the others.
    long[] keys = {0L, 64L, 128L, 1L << 32 | 1, 1L, -1L, Long.MIN_VALUE};
    for (int i = 0; i < keys.length; i++) {
      table.put(keys[i], entry(i));
    }
    for (int i = 0; i < keys.length; i++) {
      assertThat(table.get(keys[i]).index()).isEqualTo(i);
    }
    assertThat(table.get(192L)).isNull();
    assertThat(table.get(2L)).isNull();
  }
}
