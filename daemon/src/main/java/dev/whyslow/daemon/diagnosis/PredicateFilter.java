package dev.whyslow.daemon.diagnosis;

import dev.whyslow.protocol.Site;
import dev.whyslow.protocol.SiteKind;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Set;

/**
 * Which sites' predicates enter a {@link PredicateTable}. CBI looks at every predicate by default;
 * ΔLDA at loop branches only, as Song and Lu did, because a loop's iteration count is the signal it
 * is good at. Sites the daemon has no metadata for can only be kept by a filter that admits every
 * kind, since their kind is unknown.
 *
 * @param kinds the site kinds to keep
 * @param includeUnknownSites whether to keep sites without metadata
 */
public record PredicateFilter(Set<SiteKind> kinds, boolean includeUnknownSites) {

  public PredicateFilter {
    Objects.requireNonNull(kinds, "kinds");
    if (kinds.isEmpty()) {
      throw new IllegalArgumentException(
          "a predicate filter needs at least one site kind; use PredicateFilter.all() for every"
              + " predicate");
    }
    kinds = Set.copyOf(EnumSet.copyOf(kinds));
  }

  /** Every predicate, including those of sites without metadata. */
  public static PredicateFilter all() {
    return new PredicateFilter(EnumSet.allOf(SiteKind.class), true);
  }

  /** Loop-condition branches only: ΔLDA's default vocabulary. */
  public static PredicateFilter loopBranches() {
    return new PredicateFilter(EnumSet.of(SiteKind.LOOP_BRANCH), false);
  }

  /** Predicates of the given site kinds only. */
  public static PredicateFilter kinds(SiteKind first, SiteKind... more) {
    return new PredicateFilter(EnumSet.of(first, more), false);
  }

  /**
   * Parses {@code all}, {@code loop-branch} or a comma-separated list of kind names such as {@code
   * branch,loop-branch,return-numeric} (case and {@code _}/{@code -} do not matter).
   */
  public static PredicateFilter parse(String text) {
    String normal = text.trim().toLowerCase(Locale.ROOT).replace('_', '-');
    if (normal.equals("all")) {
      return all();
    }
    EnumSet<SiteKind> kinds = EnumSet.noneOf(SiteKind.class);
    for (String part : normal.split(",")) {
      String name = part.trim();
      if (name.equals("loop-branches")) {
        name = "loop-branch";
      }
      kinds.add(kindNamed(name, text));
    }
    return new PredicateFilter(kinds, false);
  }

  private static SiteKind kindNamed(String name, String text) {
    List<String> known = new ArrayList<>();
    for (SiteKind kind : SiteKind.values()) {
      if (spelling(kind).equals(name)) {
        return kind;
      }
      known.add(spelling(kind));
    }
    throw new IllegalArgumentException(
        "unknown predicate filter '"
            + text
            + "': use all, or a comma-separated list of "
            + String.join(", ", known));
  }

  private static String spelling(SiteKind kind) {
    return kind.name().toLowerCase(Locale.ROOT).replace('_', '-');
  }

  /** Whether predicates of this site are kept; {@code site} is null when there is no metadata. */
  public boolean accepts(Site site) {
    return site == null ? includeUnknownSites : kinds.contains(site.kind());
  }

  /** {@code all} or the kinds, e.g. {@code loop-branch}, in the spelling {@link #parse} reads. */
  public String describe() {
    if (includeUnknownSites && kinds.size() == SiteKind.values().length) {
      return "all";
    }
    List<String> names = new ArrayList<>();
    for (SiteKind kind : EnumSet.copyOf(kinds)) {
      names.add(spelling(kind));
    }
    return String.join(",", names);
  }
}
