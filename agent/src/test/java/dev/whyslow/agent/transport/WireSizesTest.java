package dev.whyslow.agent.transport;

import static org.assertj.core.api.Assertions.assertThat;

import dev.whyslow.protocol.Label;
import dev.whyslow.protocol.MessageCodec;
import dev.whyslow.protocol.Run;
import dev.whyslow.protocol.RunBatch;
import dev.whyslow.protocol.RunKind;
import dev.whyslow.protocol.Site;
import dev.whyslow.protocol.SiteBatch;
import dev.whyslow.protocol.SiteCounts;
import dev.whyslow.protocol.SiteKind;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** {@link WireSizes} must agree with {@link MessageCodec} byte for byte. */
class WireSizesTest {
  private static final String[] STRINGS = {
    "",
    "GET /cart",
    "Größe",
    "日本語",
    "emoji \uD83D\uDE00",
    "lone \uD800 high",
    "lone \uDC00 low",
    "end \uD83D"
  };

  private final SplittableRandom random = new SplittableRandom(42);

  @Test
  void runSizesMatchTheCodec() {
    for (int i = 0; i < 500; i++) {
      Run run = randomRun();
      // A batch of one: type byte, count 1 (one varint byte), then the run.
      int encoded = MessageCodec.encode(new RunBatch(List.of(run))).length - 2;
      assertThat(WireSizes.run(run)).as("size of %s", run).isEqualTo(encoded);
    }
  }

  @Test
  void siteSizesMatchTheCodec() {
    for (int i = 0; i < 500; i++) {
      Site site = randomSite();
      int encoded = MessageCodec.encode(new SiteBatch(List.of(site))).length - 2;
      assertThat(WireSizes.site(site)).as("size of %s", site).isEqualTo(encoded);
    }
  }

  @Test
  void utf8LengthMatchesStringGetBytes() {
    for (String s : STRINGS) {
      assertThat(WireSizes.utf8Length(s))
          .as(s)
          .isEqualTo(s.getBytes(StandardCharsets.UTF_8).length);
    }
  }

  @Test
  void varintSizesCoverTheExtremes() {
    assertThat(WireSizes.varLong(0)).isEqualTo(1);
    assertThat(WireSizes.varLong(127)).isEqualTo(1);
    assertThat(WireSizes.varLong(128)).isEqualTo(2);
    assertThat(WireSizes.varLong(Long.MAX_VALUE)).isEqualTo(9);
    assertThat(WireSizes.varLong(-1)).isEqualTo(10);
    assertThat(WireSizes.varInt(-1)).isEqualTo(5);
    assertThat(WireSizes.signedVarInt(-1)).isEqualTo(1);
  }

  private Run randomRun() {
    int siteCount = random.nextInt(6);
    List<SiteCounts> counts = new ArrayList<>();
    for (int s = 0; s < siteCount; s++) {
      long observed = bigOrSmall();
      long[] trueCounts = new long[random.nextInt(7)];
      for (int p = 0; p < trueCounts.length; p++) {
        trueCounts[p] = observed == 0 ? 0 : random.nextLong(observed + 1);
      }
      counts.add(new SiteCounts(random.nextLong(), observed, trueCounts));
    }
    return new Run(
        bigOrSmall(),
        random.nextBoolean() ? RunKind.UNIT : RunKind.PROCESS,
        random.nextLong(),
        bigOrSmall(),
        Label.values()[random.nextInt(Label.values().length)],
        STRINGS[random.nextInt(STRINGS.length)],
        1e-4,
        counts);
  }

  private Site randomSite() {
    return new Site(
        random.nextLong(),
        STRINGS[random.nextInt(STRINGS.length)] + ".Cls",
        STRINGS[random.nextInt(STRINGS.length)],
        "(I)J",
        STRINGS[random.nextInt(STRINGS.length)],
        random.nextBoolean() ? -1 : random.nextInt(),
        SiteKind.values()[random.nextInt(SiteKind.values().length)],
        random.nextBoolean() ? -1 : random.nextInt(1000),
        STRINGS[random.nextInt(STRINGS.length)]);
  }

  private long bigOrSmall() {
    return random.nextBoolean() ? random.nextLong(200) : random.nextLong(Long.MAX_VALUE);
  }
}
