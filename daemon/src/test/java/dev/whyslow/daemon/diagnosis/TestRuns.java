package dev.whyslow.daemon.diagnosis;

import dev.whyslow.protocol.Label;
import dev.whyslow.protocol.Run;
import dev.whyslow.protocol.RunKind;
import dev.whyslow.protocol.Site;
import dev.whyslow.protocol.SiteCounts;
import dev.whyslow.protocol.SiteKind;
import dev.whyslow.storage.RunOrigin;
import dev.whyslow.storage.StoredRun;
import java.util.List;

/** Builds stored runs and sites for diagnosis tests. */
final class TestRuns {
  static final RunOrigin ORIGIN = new RunOrigin("checkout", "i-1", "1.0");

  private TestRuns() {}

  static Site site(long key, SiteKind kind) {
    return new Site(
        key, "com.example.Cart", "method" + key, "()V", "Cart.java", (int) key, kind, -1, "");
  }

  static Site site(
      long key, SiteKind kind, String className, String method, String file, int line) {
    return new Site(key, className, method, "()V", file, line, kind, 0, "");
  }

  static StoredRun run(long id, Label label, List<SiteCounts> sites) {
    return run(id, label, 1e-4, sites);
  }

  static StoredRun run(long id, Label label, double samplingRate, List<SiteCounts> sites) {
    Run run =
        new Run(id, RunKind.UNIT, 1_000 + id, 1_000_000, label, "request", samplingRate, sites);
    return new StoredRun(id, ORIGIN, run);
  }

  /** A two-way branch site entry: observed = taken + notTaken. */
  static SiteCounts branch(long key, long taken, long notTaken) {
    return new SiteCounts(key, taken + notTaken, new long[] {taken, notTaken});
  }
}
