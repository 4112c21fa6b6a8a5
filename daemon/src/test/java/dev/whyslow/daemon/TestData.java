package dev.whyslow.daemon;

import dev.whyslow.protocol.AgentStats;
import dev.whyslow.protocol.Hello;
import dev.whyslow.protocol.Label;
import dev.whyslow.protocol.MessageCodec;
import dev.whyslow.protocol.Run;
import dev.whyslow.protocol.RunKind;
import dev.whyslow.protocol.Site;
import dev.whyslow.protocol.SiteBatch;
import dev.whyslow.protocol.SiteCounts;
import dev.whyslow.protocol.SiteKeys;
import dev.whyslow.protocol.SiteKind;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;

/** Sites, runs and handshakes shared by the daemon's tests. */
public final class TestData {
  public static final String SERVICE = "checkout";

  public static final Site LOOP =
      new Site(
          SiteKeys.key("com.acme.Cart", "total", "()J", 7, SiteKind.LOOP_BRANCH),
          "com.acme.Cart",
          "total",
          "()J",
          "Cart.java",
          42,
          SiteKind.LOOP_BRANCH,
          0,
          "");

  public static final Site RETURN =
      new Site(
          SiteKeys.key("com.acme.Cart", "size", "()I", 3, SiteKind.RETURN_NUMERIC),
          "com.acme.Cart",
          "size",
          "()I",
          "Cart.java",
          17,
          SiteKind.RETURN_NUMERIC,
          -1,
          "");

  /** A site no agent ever announced. */
  public static final long UNKNOWN_SITE_KEY = 0x0123456789abcdefL;

  public static final SiteBatch SITES = new SiteBatch(List.of(LOOP, RETURN));

  private TestData() {}

  /** A fixed clock, for daemons whose retention must keep runs from {@code epochMillis}. */
  public static Clock clockAt(long epochMillis) {
    return Clock.fixed(Instant.ofEpochMilli(epochMillis), ZoneOffset.UTC);
  }

  public static Hello hello(String instance, String version, String token) {
    return new Hello(MessageCodec.PROTOCOL_VERSION, SERVICE, instance, version, "0.1.0", token);
  }

  public static Hello hello() {
    return hello("host-a:1", "1.0", "");
  }

  /** A unit run over both sites. */
  public static Run run(long sequence, long startMillis, Label label) {
    return new Run(
        sequence,
        RunKind.UNIT,
        startMillis,
        2_000_000 + sequence,
        label,
        "GET /cart",
        1e-4,
        List.of(
            new SiteCounts(LOOP.key(), 10, new long[] {7, 3}),
            new SiteCounts(RETURN.key(), 4, new long[] {0, 0, 4, 4, 0, 4})));
  }

  public static Run run(long sequence, long startMillis) {
    return run(sequence, startMillis, Label.DO_NOT_CARE);
  }

  /** A run that uses a site never announced. */
  public static Run runWithUnknownSite(long sequence, long startMillis) {
    return new Run(
        sequence,
        RunKind.UNIT,
        startMillis,
        1,
        Label.DO_NOT_CARE,
        "GET /cart",
        1e-4,
        List.of(
            new SiteCounts(LOOP.key(), 1, new long[] {1, 0}),
            new SiteCounts(UNKNOWN_SITE_KEY, 1, new long[] {1, 0})));
  }

  public static AgentStats stats(long runsDropped, long samplesRecorded) {
    return new AgentStats(
        1_700_000_000_000L, samplesRecorded, 2, 1, 0, 10, 9, runsDropped, 0, 0, 1);
  }
}
