package dev.whyslow.daemon.diagnosis;

/** A model's scores for one ranked predicate; each model has its own record with named fields. */
public sealed interface PredicateScores permits CbiScores, DeltaLdaScores {}
