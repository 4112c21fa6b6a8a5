package dev.whyslow.daemon.diagnosis;

/**
 * A CBI predictor as iterative elimination found it: its scores over all runs ({@code initial}) and
 * over the runs still unexplained when it was picked ({@code effective}), as cbiexp reports.
 *
 * @param round the elimination round that picked it, from 1
 * @param initial scores over every labelled run
 * @param effective scores over the runs left in its round; equal to {@code initial} in round 1
 */
public record CbiScores(int round, CbiStats initial, CbiStats effective)
    implements PredicateScores {}
