package dev.whyslow.examples.eval;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * Where a root cause ranked in one diagnosis: a position from 1, not in the top N the report
 * returned ({@code >top}), or not expressible by the column's predicates ({@code -}).
 *
 * @param position the rank from 1, {@link #NOT_IN_TOP} or {@link #NOT_EXPRESSIBLE}
 */
public record Rank(int position) {
  public static final int NOT_IN_TOP = Integer.MAX_VALUE;
  public static final int NOT_EXPRESSIBLE = -1;

  /** Orders ranks best first, with "not in the top N" last. */
  public static final Comparator<Rank> BEST_FIRST = Comparator.comparingInt(Rank::position);

  public Rank {
    if (position == 0 || position < NOT_EXPRESSIBLE) {
      throw new IllegalArgumentException("a rank starts at 1, was " + position);
    }
  }

  public static Rank at(int position) {
    return new Rank(position);
  }

  public static Rank notInTop() {
    return new Rank(NOT_IN_TOP);
  }

  public static Rank notExpressible() {
    return new Rank(NOT_EXPRESSIBLE);
  }

  public boolean isFirst() {
    return position == 1;
  }

  public boolean isExpressible() {
    return position != NOT_EXPRESSIBLE;
  }

  /** The table cell: {@code 1}, {@code >top} or {@code -}. */
  public String cell() {
    if (position == NOT_EXPRESSIBLE) {
      return "-";
    }
    return position == NOT_IN_TOP ? ">top" : Integer.toString(position);
  }

  /** The median of several trials (the lower middle one for an even count). */
  public static Rank median(List<Rank> trials) {
    if (trials.isEmpty()) {
      throw new IllegalArgumentException("the median of no trials is undefined");
    }
    List<Rank> sorted = new ArrayList<>(trials);
    sorted.sort(BEST_FIRST);
    return sorted.get((sorted.size() - 1) / 2);
  }

  /**
   * The cell for several trials of one setting: the median rank, and the range in brackets when the
   * trials disagree, e.g. {@code 1} or {@code 2 [1–>top]}.
   */
  public static String summary(List<Rank> trials) {
    if (trials.isEmpty()) {
      return "";
    }
    List<Rank> sorted = new ArrayList<>(trials);
    sorted.sort(BEST_FIRST);
    Rank median = median(trials);
    Rank best = sorted.get(0);
    Rank worst = sorted.get(sorted.size() - 1);
    if (best.equals(worst)) {
      return median.cell();
    }
    return median.cell() + " [" + best.cell() + "–" + worst.cell() + "]";
  }
}
