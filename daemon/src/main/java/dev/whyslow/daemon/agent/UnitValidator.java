package dev.whyslow.daemon.agent;

import dev.whyslow.protocol.ErrorCode;
import dev.whyslow.protocol.ErrorMessage;
import dev.whyslow.protocol.UnitHistogram;
import dev.whyslow.protocol.UnitStats;
import dev.whyslow.protocol.UnitTypeInfo;
import dev.whyslow.protocol.Violation;
import dev.whyslow.storage.RunOrigin;
import dev.whyslow.storage.StoreLimits;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Checks unit statistics, violations and unit types before they are stored: names present and at
 * most {@link #MAX_UNIT_TYPE_CHARS}, times storable, durations and intervals within reason, each
 * unit type once per message. One bad entry refuses its whole message, so nothing is half stored.
 */
final class UnitValidator {
  /** Unit type names are at most this long (the issue 4 contract). */
  static final int MAX_UNIT_TYPE_CHARS = 200;

  /** Longer than any unit or interval worth measuring: beyond it a value is a bug or garbage. */
  static final long MAX_NANOS = Duration.ofDays(30).toNanos();

  static final long MAX_INTERVAL_MILLIS = Duration.ofDays(1).toMillis();
  static final int MAX_ENTRIES = 10_000;
  static final int MAX_TEXT_CHARS = 4096;

  private UnitValidator() {}

  static Optional<ErrorMessage> unitStats(RunOrigin origin, UnitStats stats) {
    String what = "unit statistics of " + stats.histograms().size() + " unit types";
    if (stats.intervalMillis() > MAX_INTERVAL_MILLIS) {
      return invalid("interval of " + stats.intervalMillis() + " ms is longer than a day", what);
    }
    if (stats.histograms().size() > MAX_ENTRIES) {
      return invalid("more than " + MAX_ENTRIES + " unit types in one interval", what);
    }
    Set<String> seen = new HashSet<>();
    for (UnitHistogram h : stats.histograms()) {
      Optional<String> name = checkName(h.unitType());
      if (name.isPresent()) {
        return invalid(name.get(), what);
      }
      if (!seen.add(h.unitType())) {
        return invalid("unit type '" + h.unitType() + "' appears twice", what);
      }
      if (h.maxNanos() > MAX_NANOS) {
        return invalid(
            "unit type '" + h.unitType() + "' has a max of " + h.maxNanos() + " ns, over 30 days",
            what);
      }
      // The mean must lie between min and max, or count and sum contradict each other.
      if (h.count() > 0) {
        double mean = (double) h.sumNanos() / h.count();
        if (mean < h.minNanos() - 1 || mean > h.maxNanos() + 1) {
          return invalid(
              "unit type '"
                  + h.unitType()
                  + "' has mean "
                  + (long) mean
                  + " ns outside its min "
                  + h.minNanos()
                  + " and max "
                  + h.maxNanos(),
              what);
        }
      }
    }
    try {
      StoreLimits.checkUnitStats(origin, stats);
    } catch (IllegalArgumentException e) {
      return invalid(e.getMessage(), what);
    }
    return Optional.empty();
  }

  static Optional<ErrorMessage> violations(RunOrigin origin, List<Violation> violations) {
    String what = "batch of " + violations.size() + " violations";
    if (violations.size() > MAX_ENTRIES) {
      return invalid("more than " + MAX_ENTRIES + " violations in one batch", what);
    }
    for (int i = 0; i < violations.size(); i++) {
      Violation v = violations.get(i);
      String which = "violation " + (i + 1);
      Optional<String> name = checkName(v.unitType());
      if (name.isPresent()) {
        return invalid(which + ": " + name.get(), what);
      }
      if (v.elapsedNanos() > MAX_NANOS || v.thresholdNanos() > MAX_NANOS) {
        return invalid(
            which
                + " has elapsed "
                + v.elapsedNanos()
                + " ns and threshold "
                + v.thresholdNanos()
                + " ns; more than 30 days is not a measurement",
            what);
      }
      if (v.thread().length() > MAX_TEXT_CHARS
          || v.stack().stream().anyMatch(f -> f.length() > MAX_TEXT_CHARS)) {
        return invalid(
            which + " has a thread name or frame longer than " + MAX_TEXT_CHARS + " chars", what);
      }
      try {
        StoreLimits.checkViolation(origin, v);
      } catch (IllegalArgumentException e) {
        return invalid(which + ": " + e.getMessage(), what);
      }
    }
    return Optional.empty();
  }

  static Optional<ErrorMessage> unitTypes(List<UnitTypeInfo> types) {
    String what = "batch of " + types.size() + " unit types";
    if (types.size() > MAX_ENTRIES) {
      return invalid("more than " + MAX_ENTRIES + " unit types in one batch", what);
    }
    for (UnitTypeInfo t : types) {
      Optional<String> name = checkName(t.name());
      if (name.isPresent()) {
        return invalid(name.get(), what);
      }
      if (t.entryPoint().isBlank()) {
        return invalid("unit type '" + t.name() + "' has no entry point", what);
      }
      if (t.contexts().size() > MAX_ENTRIES || t.guardMethods().size() > MAX_ENTRIES) {
        return invalid("unit type '" + t.name() + "' lists more than " + MAX_ENTRIES, what);
      }
    }
    return Optional.empty();
  }

  private static Optional<String> checkName(String unitType) {
    if (unitType.isBlank()) {
      return Optional.of("a unit type name is empty");
    }
    if (unitType.length() > MAX_UNIT_TYPE_CHARS) {
      return Optional.of(
          "unit type name of "
              + unitType.length()
              + " chars (starting '"
              + unitType.substring(0, 40)
              + "…') is longer than "
              + MAX_UNIT_TYPE_CHARS);
    }
    return Optional.empty();
  }

  private static Optional<ErrorMessage> invalid(String problem, String what) {
    return Optional.of(
        new ErrorMessage(
            ErrorCode.INVALID_MESSAGE, problem + "; the " + what + " was not stored", false));
  }
}
