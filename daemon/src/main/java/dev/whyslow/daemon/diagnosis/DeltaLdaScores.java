package dev.whyslow.daemon.diagnosis;

/**
 * A ΔLDA predictor's scores, averaged over the samples read. Song and Lu rank by P(w | bug); cbiexp
 * recommends P(bug | w), which is not inflated by predicates that are simply frequent everywhere,
 * so it is reported beside it.
 *
 * @param bugTopic the bug topic (index among all topics) the predicate belongs to most
 * @param wordGivenBug P(w | bug): the predicate's share of the bug topic
 * @param bugGivenWord P(bug | w): the share of the predicate's use that the bug topic explains
 * @param bugTokens mean number of the predicate's tokens assigned to the bug topic
 * @param failingTokens sampled-true evaluations in failing runs (after any thinning)
 * @param successTokens sampled-true evaluations in successful runs (after any thinning)
 */
public record DeltaLdaScores(
    int bugTopic,
    double wordGivenBug,
    double bugGivenWord,
    double bugTokens,
    long failingTokens,
    long successTokens)
    implements PredicateScores {}
