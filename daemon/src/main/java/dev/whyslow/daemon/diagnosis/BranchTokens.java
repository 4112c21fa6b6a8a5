package dev.whyslow.daemon.diagnosis;

/**
 * Sampled-true evaluations of a branch site's two directions, summed per run class. A loop branch's
 * iterating direction fires once per iteration and its exiting direction once per loop instance, so
 * these totals tell "more iterations per instance" from "more instances" for {@link FixHint}.
 *
 * @param failingTaken sampled "taken" evaluations summed over failing runs
 * @param failingNotTaken sampled "not taken" evaluations summed over failing runs
 * @param successTaken sampled "taken" evaluations summed over successful runs
 * @param successNotTaken sampled "not taken" evaluations summed over successful runs
 */
public record BranchTokens(
    long failingTaken, long failingNotTaken, long successTaken, long successNotTaken) {

  public BranchTokens {
    if (failingTaken < 0 || failingNotTaken < 0 || successTaken < 0 || successNotTaken < 0) {
      throw new IllegalArgumentException(
          "branch token counts must be >= 0, got "
              + failingTaken
              + ", "
              + failingNotTaken
              + ", "
              + successTaken
              + ", "
              + successNotTaken);
    }
  }
}
