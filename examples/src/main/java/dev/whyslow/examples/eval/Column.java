package dev.whyslow.examples.eval;

import dev.whyslow.daemon.diagnosis.PredicateFilter;
import dev.whyslow.protocol.SiteKind;
import java.util.EnumSet;
import java.util.Set;

/**
 * One column of Song and Lu's Table 5: a statistical model applied to one kind of predicate. A root
 * cause can only be found in a column whose predicates can express it; elsewhere the table shows
 * "-".
 */
public enum Column {
  CBI_BRANCH("CBI branch", "cbi", EnumSet.of(SiteKind.BRANCH, SiteKind.LOOP_BRANCH)),
  CBI_RETURN(
      "CBI return",
      "cbi",
      EnumSet.of(SiteKind.RETURN_NUMERIC, SiteKind.RETURN_BOOLEAN, SiteKind.RETURN_REFERENCE)),
  CBI_SCALAR_PAIR("CBI scalar-pair", "cbi", EnumSet.of(SiteKind.SCALAR_PAIR)),
  DELTA_LDA_LOOP("ΔLDA loop-branch", "delta-lda", EnumSet.of(SiteKind.LOOP_BRANCH));

  private final String heading;
  private final String model;
  private final Set<SiteKind> kinds;

  Column(String heading, String model, Set<SiteKind> kinds) {
    this.heading = heading;
    this.model = model;
    this.kinds = kinds;
  }

  /** The column's heading in the tables, e.g. {@code CBI branch}. */
  public String heading() {
    return heading;
  }

  /** The diagnosis model's name, {@code cbi} or {@code delta-lda}. */
  public String model() {
    return model;
  }

  /** The site kinds the model ranks in this column. */
  public Set<SiteKind> kinds() {
    return kinds;
  }

  /** The diagnosis filter that keeps this column's predicates (and no site without metadata). */
  public PredicateFilter filter() {
    return new PredicateFilter(kinds, false);
  }

  /** Whether a root cause of {@code kind} is one of this column's predicates. */
  public boolean expresses(SiteKind kind) {
    return kinds.contains(kind);
  }
}
