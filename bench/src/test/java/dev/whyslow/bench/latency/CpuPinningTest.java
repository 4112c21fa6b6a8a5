package dev.whyslow.bench.latency;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

class CpuPinningTest {
  @Test
  void emptyMeansNoPinning() {
    CpuPinning none = CpuPinning.parse(" ");

    assertThat(none.shopPrefix()).isEmpty();
    assertThat(none.describe()).isEmpty();
  }

  @Test
  void shopGetsTasksetPrefix() {
    CpuPinning pinning = CpuPinning.parse("2-3/0,1");

    assertThat(pinning.shopPrefix()).isEqualTo(List.of("taskset", "-c", "2-3"));
    assertThat(pinning.otherCpus()).isEqualTo("0,1");
    assertThat(pinning.describe()).contains("CPU 2-3").contains("CPU 0,1");
  }

  @Test
  void refusesMalformedLists() {
    for (String bad : List.of("1", "1/", "/0", "a/b", "1/0/2", "1;0", "-1/0")) {
      assertThatThrownBy(() -> CpuPinning.parse(bad))
          .as(bad)
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("<shop CPUs>/<other CPUs>");
    }
  }

  @Test
  void refusesAbsurdOrBackwardRanges() {
    assertThatThrownBy(() -> CpuPinning.parse("0-99999999/1"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("past 8191");
    assertThatThrownBy(() -> CpuPinning.parse("3-1/0"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("runs backwards");
  }

  @Test
  void refusesACpuOnBothSides() {
    assertThatThrownBy(() -> CpuPinning.parse("0-2/2"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("CPU 2 is on both sides");
  }
}
