package dev.whyslow.examples.eval;

import static org.assertj.core.api.Assertions.assertThat;

import dev.whyslow.storage.StoredRun;
import java.util.List;
import org.junit.jupiter.api.Test;

class EvaluationTest {
  @Test
  void runsAreDiagnosedInTheOrderOfTheirInputsNotOfTheirArrival() {
    List<StoredRun> arrived = EmulatedRunsTest.pool(); // seeds 3, 1, 4, 2, good and bad mixed
    assertThat(Evaluation.inInputOrder(arrived))
        .extracting(r -> r.origin().instance())
        .containsExactly(
            "good-1", "good-2", "good-3", "good-4", "bad-1", "bad-2", "bad-3", "bad-4");
    assertThat(arrived).extracting(r -> r.origin().instance()).startsWith("good-3", "bad-3");
  }
}
