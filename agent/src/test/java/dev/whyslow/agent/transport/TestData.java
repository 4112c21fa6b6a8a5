package dev.whyslow.agent.transport;

import dev.whyslow.protocol.Hello;
import dev.whyslow.protocol.Label;
import dev.whyslow.protocol.MessageCodec;
import dev.whyslow.protocol.Run;
import dev.whyslow.protocol.RunKind;
import dev.whyslow.protocol.Site;
import dev.whyslow.protocol.SiteCounts;
import dev.whyslow.protocol.SiteKind;
import java.util.ArrayList;
import java.util.List;

/** Small runs, sites and settings for transport tests. */
final class TestData {
  static final Hello HELLO =
      new Hello(MessageCodec.PROTOCOL_VERSION, "checkout", "host-1:4242", "1.0", "0.1.0", "secret");

  private TestData() {}

  static Site site(long key) {
    return new Site(
        key, "com.acme.Cart", "total", "()J", "Cart.java", 40 + (int) key, SiteKind.BRANCH, -1, "");
  }

  static List<Site> sites(long fromKey, int count) {
    List<Site> sites = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      sites.add(site(fromKey + i));
    }
    return sites;
  }

  static Run run(long sequence) {
    return run(sequence, 1);
  }

  /** A unit run that saw {@code siteCount} branch sites, keys 1..siteCount. */
  static Run run(long sequence, int siteCount) {
    List<SiteCounts> counts = new ArrayList<>();
    for (int i = 1; i <= siteCount; i++) {
      counts.add(new SiteCounts(i, 3, new long[] {2, 1}));
    }
    return new Run(
        sequence,
        RunKind.UNIT,
        1_700_000_000_000L,
        1_234_567,
        Label.SUCCESS,
        "GET /cart",
        1e-4,
        counts);
  }

  /** Fast settings for tests against a local server. */
  static TransportSettings settings(int port) {
    return new TransportSettings(
        "127.0.0.1",
        port,
        HELLO,
        100,
        10,
        50,
        60_000,
        10,
        100,
        60_000,
        MessageCodec.DEFAULT_MAX_FRAME_BYTES);
  }
}
