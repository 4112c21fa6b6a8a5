package dev.whyslow.daemon.diagnosis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class LongIntMapTest {

  @Test
  void findsEveryKeyAfterGrowingIncludingZeroAndNegativeKeys() {
    LongIntMap map = new LongIntMap(2);
    for (int i = 0; i < 10_000; i++) {
      map.put(i * 0x1_0000_0001L - 5_000, i);
    }

    assertThat(map.size()).isEqualTo(10_000);
    for (int i = 0; i < 10_000; i++) {
      assertThat(map.get(i * 0x1_0000_0001L - 5_000)).isEqualTo(i);
    }
    assertThat(map.get(0x1_0000_0001L * 20_000)).isEqualTo(LongIntMap.MISSING);
  }

  @Test
  void storesMarkersBelowMinusOneAndOverwrites() {
    LongIntMap map = new LongIntMap(16);
    map.put(0, -2);
    map.put(7, 3);
    map.put(7, 4);

    assertThat(map.get(0)).isEqualTo(-2);
    assertThat(map.get(7)).isEqualTo(4);
    assertThat(map.size()).isEqualTo(2);
    assertThatThrownBy(() -> map.put(1, LongIntMap.MISSING)).hasMessageContaining("-1");
  }
}
