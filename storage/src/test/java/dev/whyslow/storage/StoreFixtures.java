package dev.whyslow.storage;

import dev.whyslow.protocol.AgentStats;
import dev.whyslow.protocol.Label;
import dev.whyslow.protocol.Run;
import dev.whyslow.protocol.RunKind;
import dev.whyslow.protocol.Site;
import dev.whyslow.protocol.SiteCounts;
import dev.whyslow.protocol.SiteKind;
import java.util.ArrayList;
import java.util.List;

/** Small builders of sites, runs and stats for store tests, deterministic from their arguments. */
public final class StoreFixtures {
  public static final RunOrigin CHECKOUT_A = new RunOrigin("checkout", "host-a:1", "1.0");
  public static final RunOrigin CHECKOUT_B = new RunOrigin("checkout", "host-b:1", "1.1");
  public static final RunOrigin SEARCH_A = new RunOrigin("search", "host-a:2", "7");

  private StoreFixtures() {}

  public static Site site(long key, String method, SiteKind kind) {
    return new Site(
        key, "com.example.Cart", method, "()V", "Cart.java", 10 + (int) (key & 0xff), kind, -1, "");
  }

  /** A unit run of the given start, label and unit type with two sites of counts. */
  public static Run run(long sequence, long startMillis, Label label, String unitType) {
    return new Run(
        sequence,
        RunKind.UNIT,
        startMillis,
        1_000_000L + sequence,
        label,
        unitType,
        1e-4,
        List.of(
            new SiteCounts(0x1234L, 5 + sequence, new long[] {2, 3}),
            new SiteCounts(-7L, 9, new long[] {0, 1, 2, 3, 4, 9})));
  }

  public static Run run(long sequence, long startMillis) {
    return run(sequence, startMillis, Label.DO_NOT_CARE, "GET /cart");
  }

  /**
   * A run whose every field is derived from {@code sequence}, with a varying number of sites, so a
   * reader can rebuild exactly what a writer stored (the crash test relies on this).
   */
  public static Run deterministicRun(long sequence, long startMillis) {
    int siteCount = (int) (sequence % 7);
    List<SiteCounts> sites = new ArrayList<>();
    for (int i = 0; i < siteCount; i++) {
      long observed = sequence % 1000 + i;
      long[] trueCounts = new long[1 + (i % 6)];
      for (int p = 0; p < trueCounts.length; p++) {
        trueCounts[p] = (observed * (p + 1)) % (observed + 1);
      }
      sites.add(new SiteCounts(sequence * 31 + i * 0x9E3779B97F4A7C15L, observed, trueCounts));
    }
    return new Run(
        sequence,
        sequence % 3 == 0 ? RunKind.PROCESS : RunKind.UNIT,
        startMillis,
        sequence * 977,
        Label.fromCode((int) (sequence % 3)),
        sequence % 3 == 0 ? "" : "unit-" + sequence % 5,
        1.0 / (1 + sequence % 10_000),
        sites);
  }

  public static AgentStats agentStats(long timestampMillis, long runsSent) {
    return new AgentStats(timestampMillis, 100, 20, 3, 0, runsSent + 1, runsSent, 1, 0, 2, 4096);
  }
}
