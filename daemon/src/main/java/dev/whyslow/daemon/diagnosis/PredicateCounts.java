package dev.whyslow.daemon.diagnosis;

/**
 * The run counts behind a predicate's scores. CBI counts runs, not evaluations: a run counts as "P
 * true" when P was sampled true at least once in it, and as "P observed" when P's site was sampled
 * at all.
 *
 * @param failingTrue F(P true): failing runs in which P was sampled true
 * @param successTrue S(P true): successful runs in which P was sampled true
 * @param failingObserved F(P observed): failing runs in which P's site was sampled
 * @param successObserved S(P observed): successful runs in which P's site was sampled
 * @param numFailing NumF: failing runs considered
 * @param numSuccess NumS: successful runs considered
 */
public record PredicateCounts(
    int failingTrue,
    int successTrue,
    int failingObserved,
    int successObserved,
    int numFailing,
    int numSuccess) {

  public PredicateCounts {
    if (failingTrue < 0
        || successTrue < 0
        || failingTrue > failingObserved
        || successTrue > successObserved
        || failingObserved > numFailing
        || successObserved > numSuccess) {
      throw new IllegalArgumentException(
          "inconsistent predicate counts: need 0 <= true <= observed <= runs per class, got F(P"
              + " true)="
              + failingTrue
              + " F(P obs)="
              + failingObserved
              + " NumF="
              + numFailing
              + " S(P true)="
              + successTrue
              + " S(P obs)="
              + successObserved
              + " NumS="
              + numSuccess);
    }
  }
}
