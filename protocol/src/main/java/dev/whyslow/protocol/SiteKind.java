package dev.whyslow.protocol;

import java.util.List;

/**
 * What a probe site observes, and therefore which predicates it has. Predicate {@code i} of a site
 * is {@code predicates().get(i)}; the index is what runs carry.
 */
public enum SiteKind {
  /** A conditional jump: taken or not taken. */
  BRANCH(0, List.of("taken", "not taken")),
  /** A conditional jump that decides whether a loop iterates again. */
  LOOP_BRANCH(1, List.of("taken", "not taken")),
  /** The return value of a method returning a primitive number, compared with zero. */
  RETURN_NUMERIC(2, List.of("< 0", "<= 0", "> 0", ">= 0", "== 0", "!= 0")),
  /** The return value of a method returning {@code boolean}. */
  RETURN_BOOLEAN(3, List.of("false", "true")),
  /** The return value of a method returning a reference. */
  RETURN_REFERENCE(4, List.of("null", "non-null")),
  /** A new value of an int/long local compared with its old value or another local. */
  SCALAR_PAIR(5, List.of("< ", "<= ", "> ", ">= ", "== ", "!= "));

  /** Predicate indexes of the six comparisons, shared by numeric returns and scalar pairs. */
  public static final int LT = 0, LE = 1, GT = 2, GE = 3, EQ = 4, NE = 5;

  /** Predicate indexes of a branch. */
  public static final int TAKEN = 0, NOT_TAKEN = 1;

  private final int code;
  private final List<String> predicates;

  SiteKind(int code, List<String> predicates) {
    this.code = code;
    this.predicates = predicates;
  }

  public int code() {
    return code;
  }

  public int predicateCount() {
    return predicates.size();
  }

  /** Human-readable predicate, e.g. {@code "taken"} or {@code "> 0"}. */
  public String predicateName(int index) {
    return predicates.get(index);
  }

  public List<String> predicates() {
    return predicates;
  }

  public boolean isBranch() {
    return this == BRANCH || this == LOOP_BRANCH;
  }

  public static SiteKind fromCode(int code) {
    for (SiteKind kind : values()) {
      if (kind.code == code) {
        return kind;
      }
    }
    throw new IllegalArgumentException("unknown site kind code " + code);
  }
}
