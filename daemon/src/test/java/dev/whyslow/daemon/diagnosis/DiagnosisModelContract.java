package dev.whyslow.daemon.diagnosis;

import static org.assertj.core.api.Assertions.assertThat;

import dev.whyslow.protocol.Label;
import dev.whyslow.protocol.SiteKind;
import dev.whyslow.storage.StoredRun;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * What every {@link DiagnosisModel} must do, whatever its statistics: find a planted predictor
 * among noise, refuse to answer without enough data and say why, be deterministic, and ignore
 * do-not-care runs. {@code CbiModelTest} and {@code DeltaLdaModelTest} extend it.
 */
abstract class DiagnosisModelContract {

  abstract DiagnosisModel model();

  /** Options the contract runs with; models may shorten their work here to keep tests fast. */
  DiagnosisOptions options() {
    return DiagnosisOptions.defaults();
  }

  PredicateTable table(List<StoredRun> runs, PlantedBug data) {
    return PredicateTable.from(runs, data.sites(), model().defaultFilter());
  }

  @Test
  void ranksThePlantedPredictorFirstAmongNoise() {
    PlantedBug data = new PlantedBug(60, 60, 11);

    Ranking ranking = model().rank(table(data.runs, data), options());

    assertThat(ranking.insufficient()).isEmpty();
    assertThat(ranking.predicates()).isNotEmpty();
    RankedPredicate top = ranking.predicates().get(0);
    assertThat(top.siteKey()).isEqualTo(PlantedBug.BUG_SITE);
    assertThat(top.predicateIndex()).isEqualTo(SiteKind.TAKEN);
    assertThat(top.rank()).isEqualTo(1);
    assertThat(top.counts().numFailing()).isEqualTo(60);
    assertThat(top.counts().numSuccess()).isEqualTo(60);
    assertThat(ranking.model()).isEqualTo(model().name());
  }

  @Test
  void ranksAreConsecutiveFromOne() {
    PlantedBug data = new PlantedBug(40, 40, 5);

    Ranking ranking = model().rank(table(data.runs, data), options());

    for (int i = 0; i < ranking.predicates().size(); i++) {
      assertThat(ranking.predicates().get(i).rank()).isEqualTo(i + 1);
    }
  }

  @Test
  void noFailingRunsGiveAnEmptyRankingThatSaysWhy() {
    PlantedBug data = new PlantedBug(0, 50, 3);

    Ranking ranking = model().rank(table(data.runs, data), options());

    assertThat(ranking.predicates()).isEmpty();
    assertThat(ranking.isInsufficient()).isTrue();
    assertThat(ranking.insufficient()).anyMatch(r -> r.contains("no failing runs"));
  }

  @Test
  void tooFewFailingRunsGiveAnEmptyRankingThatSaysHowMany() {
    PlantedBug data = new PlantedBug(3, 50, 3);

    Ranking ranking = model().rank(table(data.runs, data), options());

    assertThat(ranking.predicates()).isEmpty();
    assertThat(ranking.insufficient())
        .anyMatch(r -> r.contains("only 3 failing runs") && r.contains("at least 10"));
  }

  @Test
  void tooFewSuccessfulRunsGiveAnEmptyRankingThatSaysHowMany() {
    PlantedBug data = new PlantedBug(50, 2, 3);

    Ranking ranking = model().rank(table(data.runs, data), options());

    assertThat(ranking.predicates()).isEmpty();
    assertThat(ranking.insufficient()).anyMatch(r -> r.contains("only 2 successful runs"));
  }

  @Test
  void noRunsAtAllGiveAnEmptyRankingThatSaysWhy() {
    PlantedBug data = new PlantedBug(0, 0, 3);

    Ranking ranking = model().rank(table(data.runs, data), options());

    assertThat(ranking.predicates()).isEmpty();
    assertThat(ranking.insufficient()).isNotEmpty();
  }

  @Test
  void theSameInputGivesTheSameRanking() {
    PlantedBug data = new PlantedBug(40, 40, 21);

    Ranking first = model().rank(table(data.runs, data), options());
    Ranking second = model().rank(table(data.runs, data), options());

    assertThat(second).isEqualTo(first);
  }

  @Test
  void doNotCareRunsAreIgnored() {
    PlantedBug data = new PlantedBug(40, 40, 17);
    List<StoredRun> withDoNotCare = new ArrayList<>(data.runs);
    SplittableRandom random = new SplittableRandom(99);
    // Do-not-care runs that look exactly like failing runs would change any ranking they entered.
    for (int i = 0; i < 60; i++) {
      withDoNotCare.add(
          TestRuns.run(10_000 + i, Label.DO_NOT_CARE, PlantedBug.counts(true, random)));
    }

    Ranking without = model().rank(table(data.runs, data), options());
    PredicateTable table = table(withDoNotCare, data);
    Ranking with = model().rank(table, options());

    assertThat(table.ignoredRunCount()).isEqualTo(60);
    assertThat(with).isEqualTo(without);
  }
}
