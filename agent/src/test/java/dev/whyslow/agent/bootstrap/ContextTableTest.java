package dev.whyslow.agent.bootstrap;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class ContextTableTest {
  @Test
  void guardsAreFoundByMethodIdAndCandidatesByDepth() {
    ContextTable table =
        ContextTable.of(3, new int[] {7, 2}, new long[][] {{0, 0b001, 0b011}, {0, 0, 0, 0b100}});

    assertThat(table.guardIdOf(7)).isZero();
    assertThat(table.guardIdOf(2)).isEqualTo(1);
    assertThat(table.candidates(0, 2)).isEqualTo(0b011);
    assertThat(table.candidates(1, 3)).isEqualTo(0b100);
    assertThat(table.methodIdOf(1)).isEqualTo(2);
    assertThat(table.guardCount()).isEqualTo(2);
  }

  @Test
  void theDepthTellsNothingWhenEachGuardNamesTheSameTypesWhereverTrainingSawIt() {
    ContextTable bySite =
        ContextTable.of(3, new int[] {7, 2}, new long[][] {{0, 0b001, 0, 0b001}, {0, 0, 0b110}});
    assertThat(bySite.depthTellsNothing()).isTrue();
    assertThat(bySite.candidatesAtAnyDepth(0)).isEqualTo(0b001);
    assertThat(bySite.candidatesAtAnyDepth(1)).isEqualTo(0b110);
    assertThat(bySite.candidatesAtAnyDepth(2)).isZero();
    assertThat(bySite.candidates(0, 2)).isZero(); // by depth, unseen is still unknown

    ContextTable byDepth =
        ContextTable.of(2, new int[] {7, 2}, new long[][] {{0, 0b01}, {0, 0b01, 0b10}});
    assertThat(byDepth.depthTellsNothing()).isFalse();
    assertThat(byDepth.candidatesAtAnyDepth(0)).isZero();
    assertThat(ContextTable.EMPTY.depthTellsNothing()).isTrue();
  }

  @Test
  void unknownMethodsDepthsAndGuardsAnswerNothing() {
    ContextTable table = ContextTable.of(2, new int[] {3}, new long[][] {{0, 0b10}});

    assertThat(table.guardIdOf(0)).isEqualTo(-1);
    assertThat(table.guardIdOf(4)).isEqualTo(-1);
    assertThat(table.guardIdOf(-1)).isEqualTo(-1);
    assertThat(table.candidates(0, 5)).isZero();
    assertThat(table.candidates(0, -1)).isZero();
    assertThat(table.candidates(1, 1)).isZero();
    assertThat(ContextTable.EMPTY.guardIdOf(0)).isEqualTo(-1);
    assertThat(ContextTable.EMPTY.typeCount()).isZero();
  }

  @Test
  void bitsBeyondTheTypesAreDroppedAndBadTablesRefused() {
    assertThat(ContextTable.of(2, new int[] {0}, new long[][] {{-1L}}).candidates(0, 0))
        .isEqualTo(0b11);
    assertThatThrownBy(() -> ContextTable.of(65, new int[0], new long[0][]))
        .hasMessageContaining("typeCount must be 0..64");
    assertThatThrownBy(() -> ContextTable.of(1, new int[] {4, 4}, new long[2][1]))
        .hasMessageContaining("method id 4 is given as a guard twice");
  }
}
