package dev.whyslow.examples.eval;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

class RankTest {
  @Test
  void cellsReadAsInThePapersTables() {
    assertThat(Rank.at(1).cell()).isEqualTo("1");
    assertThat(Rank.at(4).cell()).isEqualTo("4");
    assertThat(Rank.notInTop().cell()).isEqualTo(">top");
    assertThat(Rank.notExpressible().cell()).isEqualTo("-");
  }

  @Test
  void agreeingTrialsShowOneRank() {
    assertThat(Rank.summary(List.of(Rank.at(1), Rank.at(1), Rank.at(1)))).isEqualTo("1");
  }

  @Test
  void disagreeingTrialsShowTheMedianAndTheRange() {
    assertThat(
            Rank.summary(List.of(Rank.notInTop(), Rank.at(1), Rank.at(2), Rank.at(1), Rank.at(3))))
        .isEqualTo("2 [1–>top]");
    // With an even count the lower middle is the median.
    assertThat(Rank.summary(List.of(Rank.at(3), Rank.at(1)))).isEqualTo("1 [1–3]");
  }

  @Test
  void aRankStartsAtOne() {
    assertThatThrownBy(() -> Rank.at(0)).isInstanceOf(IllegalArgumentException.class);
  }
}
