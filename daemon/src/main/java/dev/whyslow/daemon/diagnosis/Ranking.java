package dev.whyslow.daemon.diagnosis;

import java.util.List;
import java.util.Objects;

/**
 * A model's answer: predicates ordered best predictor first, or, when the data cannot support an
 * answer, no predicates and the reasons in {@code insufficient}. {@code notes} carry caveats that
 * do not stop the ranking (e.g. failing runs no predictor explains).
 *
 * @param model the model's name
 * @param predicates ranked predicates, best first
 * @param insufficient why there is no answer; empty when there is one
 * @param notes caveats for the reader
 */
public record Ranking(
    String model, List<RankedPredicate> predicates, List<String> insufficient, List<String> notes) {

  public Ranking {
    Objects.requireNonNull(model, "model");
    predicates = List.copyOf(predicates);
    insufficient = List.copyOf(insufficient);
    notes = List.copyOf(notes);
  }

  static Ranking insufficient(String model, List<String> reasons) {
    return new Ranking(model, List.of(), reasons, List.of());
  }

  /** True when the data could not support any predictor. */
  public boolean isInsufficient() {
    return !insufficient.isEmpty();
  }
}
