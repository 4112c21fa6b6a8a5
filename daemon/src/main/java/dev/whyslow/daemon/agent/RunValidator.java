package dev.whyslow.daemon.agent;

import dev.whyslow.protocol.ErrorCode;
import dev.whyslow.protocol.ErrorMessage;
import dev.whyslow.protocol.Run;
import dev.whyslow.protocol.SiteCounts;
import dev.whyslow.protocol.SiteKeys;
import dev.whyslow.protocol.SiteKind;
import dev.whyslow.storage.RunOrigin;
import dev.whyslow.storage.StoreLimits;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Checks a run batch before it is stored: every site must be known for the service, each site
 * appears once per run with as many true counts as its kind has predicates, and the run passes
 * {@link StoreLimits}. One bad run refuses the whole batch, so a batch is stored entirely or not at
 * all.
 */
final class RunValidator {
  private final SiteCatalog catalog;

  RunValidator(SiteCatalog catalog) {
    this.catalog = catalog;
  }

  /** The error to send, or empty if the batch may be stored. */
  Optional<ErrorMessage> validate(RunOrigin origin, List<Run> runs) {
    String service = origin.service();
    for (int i = 0; i < runs.size(); i++) {
      Run run = runs.get(i);
      String which = "run " + (i + 1) + " of " + runs.size() + " (sequence " + run.sequence() + ")";
      try {
        StoreLimits.checkRun(origin, run);
      } catch (IllegalArgumentException e) {
        return invalid(ErrorCode.INVALID_MESSAGE, e.getMessage(), runs.size());
      }
      Set<Long> seen = new HashSet<>();
      for (SiteCounts counts : run.sites()) {
        String site = SiteKeys.format(counts.siteKey());
        if (!seen.add(counts.siteKey())) {
          return invalid(
              ErrorCode.INVALID_MESSAGE, which + " lists site " + site + " twice", runs.size());
        }
        Optional<SiteKind> kind = catalog.kind(service, counts.siteKey());
        if (kind.isEmpty()) {
          return invalid(
              ErrorCode.UNKNOWN_SITE,
              which
                  + " uses site "
                  + site
                  + ", which was never announced for service '"
                  + service
                  + "'; send its SiteBatch before runs that use it",
              runs.size());
        }
        int expected = kind.get().predicateCount();
        if (counts.trueCounts().length != expected) {
          return invalid(
              ErrorCode.INVALID_MESSAGE,
              which
                  + " has "
                  + counts.trueCounts().length
                  + " true counts for "
                  + kind.get()
                  + " site "
                  + site
                  + ", which has "
                  + expected
                  + " predicates",
              runs.size());
        }
      }
    }
    return Optional.empty();
  }

  private static Optional<ErrorMessage> invalid(ErrorCode code, String what, int batchSize) {
    return Optional.of(
        new ErrorMessage(
            code, what + "; the batch of " + batchSize + " runs was not stored", false));
  }
}
