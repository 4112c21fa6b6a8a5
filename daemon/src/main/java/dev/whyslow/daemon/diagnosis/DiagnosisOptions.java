package dev.whyslow.daemon.diagnosis;

import java.util.Objects;

/**
 * What a diagnosis needs besides the data: how many runs of each class make an answer worth giving,
 * and each model's settings. Song and Lu's smallest useful data set had 10 runs per class.
 *
 * @param minFailingRuns below this many failing runs the models answer "insufficient data"
 * @param minSuccessRuns below this many successful runs the models answer "insufficient data"
 * @param cbi CBI basic model settings
 * @param deltaLda ΔLDA settings
 */
public record DiagnosisOptions(
    int minFailingRuns, int minSuccessRuns, CbiOptions cbi, DeltaLdaOptions deltaLda) {

  public static final int DEFAULT_MIN_RUNS = 10;

  public DiagnosisOptions {
    if (minFailingRuns < 1 || minSuccessRuns < 1) {
      throw new IllegalArgumentException(
          "a diagnosis needs at least 1 failing and 1 successful run (default 10 each), got"
              + " minFailingRuns="
              + minFailingRuns
              + " minSuccessRuns="
              + minSuccessRuns);
    }
    Objects.requireNonNull(cbi, "cbi");
    Objects.requireNonNull(deltaLda, "deltaLda");
  }

  public static DiagnosisOptions defaults() {
    return new DiagnosisOptions(
        DEFAULT_MIN_RUNS, DEFAULT_MIN_RUNS, CbiOptions.defaults(), DeltaLdaOptions.defaults());
  }

  public DiagnosisOptions withMinRuns(int failing, int success) {
    return new DiagnosisOptions(failing, success, cbi, deltaLda);
  }

  public DiagnosisOptions withCbi(CbiOptions value) {
    return new DiagnosisOptions(minFailingRuns, minSuccessRuns, value, deltaLda);
  }

  public DiagnosisOptions withDeltaLda(DeltaLdaOptions value) {
    return new DiagnosisOptions(minFailingRuns, minSuccessRuns, cbi, value);
  }
}
