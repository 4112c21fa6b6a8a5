package dev.whyslow.daemon.diagnosis;

import dev.whyslow.protocol.SiteKind;
import java.util.List;
import java.util.Locale;
import java.util.Objects;

/**
 * A fix-strategy hint for a ranked predicate, in Song and Lu's categories, with the reason in
 * numbers. The rules, heuristics read from their study:
 *
 * <ul>
 *   <li>Non-loop branch: if successful runs that reach the branch almost never go this way (at most
 *       10%), the condition is what sends slow runs down a path fast runs avoid: <em>change the
 *       branch condition</em> (5 of their 7 branch cases). Otherwise the path is normal and slow
 *       runs take it more: <em>optimize the branch body</em>.
 *   <li>Loop branch: a loop sampled in no successful run is one slow runs execute and fast runs do
 *       without: <em>remove the loop</em>. Otherwise the iterating direction (the one sampled more:
 *       it fires once per iteration, the exit once per instance) and the exit tell whether failing
 *       runs enter the loop more often (<em>combine loop iterations or instances</em>: repeated
 *       instances redo work) or run each instance longer (<em>reduce loop iterations</em>). With
 *       fewer than 10 sampled exits the two cannot be told apart and reduce is the default.
 *   <li>Return: <em>optimize the function or avoid calling it in the slow case</em>.
 *   <li>Scalar pair, or a site without metadata: <em>inspect the code at this site</em>.
 * </ul>
 *
 * @param strategy the most likely strategy
 * @param alternatives other strategies worth considering, most likely first
 * @param rationale why, with the counts behind it
 */
public record FixHint(FixStrategy strategy, List<FixStrategy> alternatives, String rationale) {

  /** A branch that successful runs take at most this often is treated as a separating condition. */
  static final double SEPARATING_SHARE = 0.10;

  /** Fewer sampled loop exits than this cannot tell longer instances from more instances. */
  static final long MIN_EXIT_SAMPLES = 10;

  public FixHint {
    Objects.requireNonNull(strategy, "strategy");
    alternatives = List.copyOf(alternatives);
    Objects.requireNonNull(rationale, "rationale");
  }

  /**
   * The hint for predicate {@code predicateIndex} of a site of {@code kind} (null when unknown),
   * given its run counts and, for two-way branch sites, both directions' tokens (else null).
   */
  public static FixHint forPredicate(
      SiteKind kind, int predicateIndex, PredicateCounts counts, BranchTokens tokens) {
    if (kind == null) {
      return new FixHint(
          FixStrategy.INSPECT_SITE,
          List.of(),
          "the daemon has no metadata for this site (its agent did not send it), so its kind is"
              + " unknown");
    }
    switch (kind) {
      case BRANCH:
        return forBranch(counts);
      case LOOP_BRANCH:
        return forLoop(counts, tokens);
      case RETURN_NUMERIC:
      case RETURN_BOOLEAN:
      case RETURN_REFERENCE:
        return new FixHint(
            FixStrategy.OPTIMIZE_OR_AVOID_CALL,
            List.of(),
            String.format(
                Locale.ROOT,
                "the method returns %s in %d of %d failing runs that call it and %d of %d"
                    + " successful ones: the slow case goes through this call",
                kind.predicateName(predicateIndex).trim(),
                counts.failingTrue(),
                counts.failingObserved(),
                counts.successTrue(),
                counts.successObserved()));
      case SCALAR_PAIR:
      default:
        return new FixHint(
            FixStrategy.INSPECT_SITE,
            List.of(FixStrategy.CHANGE_BRANCH_CONDITION),
            "the compared values predict slow runs; look for the condition or loop bound that"
                + " uses them");
    }
  }

  private static FixHint forBranch(PredicateCounts c) {
    double share = c.successObserved() == 0 ? 0 : (double) c.successTrue() / c.successObserved();
    String counts =
        String.format(
            Locale.ROOT,
            "successful runs that reach the branch go this way in %d of %d (%.0f%%), failing runs"
                + " in %d of %d",
            c.successTrue(),
            c.successObserved(),
            100 * share,
            c.failingTrue(),
            c.failingObserved());
    if (share <= SEPARATING_SHARE) {
      return new FixHint(
          FixStrategy.CHANGE_BRANCH_CONDITION,
          List.of(FixStrategy.OPTIMIZE_BRANCH_BODY),
          counts
              + ": the condition sends slow runs down a path fast runs avoid; change it if the"
              + " slow case need not go there, else make that path cheaper");
    }
    return new FixHint(
        FixStrategy.OPTIMIZE_BRANCH_BODY,
        List.of(FixStrategy.CHANGE_BRANCH_CONDITION),
        counts + ": the path is a normal one that slow runs take more; make it cheaper");
  }

  private static FixHint forLoop(PredicateCounts c, BranchTokens tokens) {
    if (c.successObserved() == 0) {
      return new FixHint(
          FixStrategy.REMOVE_LOOP,
          List.of(
              FixStrategy.REDUCE_LOOP_ITERATIONS, FixStrategy.COMBINE_LOOP_ITERATIONS_OR_INSTANCES),
          String.format(
              Locale.ROOT,
              "the loop was sampled in %d of %d failing runs and in none of %d successful ones:"
                  + " slow runs execute a loop that fast runs do without",
              c.failingObserved(),
              c.numFailing(),
              c.numSuccess()));
    }
    if (tokens == null) {
      return new FixHint(
          FixStrategy.REDUCE_LOOP_ITERATIONS,
          List.of(FixStrategy.COMBINE_LOOP_ITERATIONS_OR_INSTANCES, FixStrategy.REMOVE_LOOP),
          "the loop's condition predicts slow runs");
    }
    boolean takenIterates =
        tokens.failingTaken() + tokens.successTaken()
            >= tokens.failingNotTaken() + tokens.successNotTaken();
    long iterFailing = takenIterates ? tokens.failingTaken() : tokens.failingNotTaken();
    long iterSuccess = takenIterates ? tokens.successTaken() : tokens.successNotTaken();
    long exitFailing = takenIterates ? tokens.failingNotTaken() : tokens.failingTaken();
    long exitSuccess = takenIterates ? tokens.successNotTaken() : tokens.successTaken();
    double perFailingRun = (double) iterFailing / Math.max(1, c.numFailing());
    double perSuccessRun = (double) iterSuccess / Math.max(1, c.numSuccess());
    if (exitFailing + exitSuccess < MIN_EXIT_SAMPLES) {
      return new FixHint(
          FixStrategy.REDUCE_LOOP_ITERATIONS,
          List.of(FixStrategy.COMBINE_LOOP_ITERATIONS_OR_INSTANCES, FixStrategy.REMOVE_LOOP),
          String.format(
              Locale.ROOT,
              "%.2f sampled iterations per failing run against %.2f per successful run; too few"
                  + " sampled loop exits (%d) to tell longer loop instances from more of them",
              perFailingRun,
              perSuccessRun,
              exitFailing + exitSuccess));
    }
    // Half a sample of smoothing keeps the ratios finite when one class never sampled an exit.
    double instancesGrowth =
        ((exitFailing + 0.5) / Math.max(1, c.numFailing()))
            / ((exitSuccess + 0.5) / Math.max(1, c.numSuccess()));
    double lengthGrowth =
        ((iterFailing + 0.5) / (exitFailing + 0.5)) / ((iterSuccess + 0.5) / (exitSuccess + 0.5));
    String growth =
        String.format(
            Locale.ROOT,
            "failing runs enter the loop %.1f× as often per run and each instance iterates %.1f×"
                + " as long",
            instancesGrowth,
            lengthGrowth);
    if (instancesGrowth > lengthGrowth) {
      return new FixHint(
          FixStrategy.COMBINE_LOOP_ITERATIONS_OR_INSTANCES,
          List.of(FixStrategy.REDUCE_LOOP_ITERATIONS, FixStrategy.REMOVE_LOOP),
          growth + ": repeated loop instances likely redo work; combine them or reuse results");
    }
    return new FixHint(
        FixStrategy.REDUCE_LOOP_ITERATIONS,
        List.of(FixStrategy.COMBINE_LOOP_ITERATIONS_OR_INSTANCES, FixStrategy.REMOVE_LOOP),
        growth
            + ": reduce the loop's workload; if its iterations repeat work, combine them (a"
            + " redundant-read scan of this loop can tell)");
  }
}
