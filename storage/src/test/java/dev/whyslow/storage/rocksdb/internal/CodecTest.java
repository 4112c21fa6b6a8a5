package dev.whyslow.storage.rocksdb.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.whyslow.protocol.Label;
import dev.whyslow.protocol.MalformedMessageException;
import dev.whyslow.protocol.Site;
import dev.whyslow.protocol.SiteKind;
import dev.whyslow.protocol.WireWriter;
import dev.whyslow.storage.RunIds;
import dev.whyslow.storage.RunOrigin;
import dev.whyslow.storage.RunQuery;
import dev.whyslow.storage.StoreFixtures;
import dev.whyslow.storage.StoredRun;
import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.api.Test;

class CodecTest {
  private static final RunOrigin ORIGIN = new RunOrigin("svc", "inst", "v1");
  private static final long ID = RunIds.of(1_700_000_000_000L, 9);

  @Test
  void runsRoundTripAndDecodeWithTheStartFromTheirId() throws Exception {
    for (long seq = 0; seq < 20; seq++) {
      StoredRun run =
          new StoredRun(
              ID, ORIGIN, StoreFixtures.deterministicRun(seq, RunIds.startEpochMillis(ID)));

      byte[] value = RunCodec.encode(ORIGIN, run.run(), new WireWriter(16));

      assertThat(RunCodec.decode(ID, value)).isEqualTo(run);
      assertThat(RunCodec.service(value)).isEqualTo("svc");
    }
  }

  @Test
  void relabellingTouchesOnlyTheLabel() throws Exception {
    StoredRun run =
        new StoredRun(ID, ORIGIN, StoreFixtures.deterministicRun(4, 1_700_000_000_000L));
    byte[] value = RunCodec.encode(ORIGIN, run.run(), new WireWriter(16));

    byte[] relabelled = RunCodec.withLabel(value, Label.FAILURE);

    assertThat(RunCodec.decode(ID, relabelled)).isEqualTo(run.withLabel(Label.FAILURE));
    assertThat(RunCodec.labelCode(relabelled)).isEqualTo(Label.FAILURE.code());
  }

  @Test
  void damagedRunsFailAsMalformedAndNeverOtherwise() throws Exception {
    byte[] good =
        RunCodec.encode(
            ORIGIN, StoreFixtures.deterministicRun(6, 1_700_000_000_000L), new WireWriter(16));
    RunFilter filter = new RunFilter(RunQuery.forService("svc").withLabel(Label.SUCCESS));
    Random random = new Random(7);
    for (int i = 0; i < 5_000; i++) {
      byte[] bad = Arrays.copyOf(good, random.nextInt(good.length + 1));
      if (bad.length > 0 && random.nextBoolean()) {
        bad[random.nextInt(bad.length)] = (byte) random.nextInt(256);
      }
      filter.matches(bad); // must not throw
      try {
        RunCodec.decode(ID, bad);
      } catch (MalformedMessageException expected) {
        // the only acceptable failure
      }
    }
  }

  @Test
  void aNewerRunFormatIsReportedAsSuch() {
    byte[] value =
        RunCodec.encode(
            ORIGIN, StoreFixtures.deterministicRun(1, 1_700_000_000_000L), new WireWriter(16));
    value[0] = 2;

    assertThatThrownBy(() -> RunCodec.decode(ID, value))
        .isInstanceOf(MalformedMessageException.class)
        .hasMessageContaining("format version 2");
  }

  @Test
  void sitesAndAgentStatsRoundTrip() throws Exception {
    Site site = new Site(-5, "a.B", "m", "()Z", "B.java", -1, SiteKind.RETURN_BOOLEAN, -1, "d");

    assertThat(SiteCodec.decode(-5, SiteCodec.encode(site, new WireWriter(8)))).isEqualTo(site);
    var stats = StoreFixtures.agentStats(123, 45);
    assertThat(AgentStatsCodec.decode(AgentStatsCodec.encode(stats))).isEqualTo(stats);
    assertThatThrownBy(() -> SiteCodec.decode(1, new byte[] {1, 0, 0, 0, 0, 0, 9}))
        .isInstanceOf(MalformedMessageException.class);
  }

  @Test
  void keysOfAServiceFormOnePrefixRangeAndSortUnsigned() {
    byte[] prefix = Keys.sitesOf("ab");
    byte[] end = Keys.prefixEnd(prefix);

    assertThat(Arrays.compareUnsigned(Keys.site("ab", 0), end)).isNegative();
    assertThat(Arrays.compareUnsigned(Keys.site("ab", -1), end)).isNegative();
    assertThat(Arrays.compareUnsigned(Keys.site("ab", 5), Keys.site("ab", -1))).isNegative();
    assertThat(Arrays.compareUnsigned(Keys.site("abc", 0), prefix)).isPositive();
    assertThat(Arrays.compareUnsigned(Keys.site("abc", 0), end)).isGreaterThanOrEqualTo(0);
    assertThat(Arrays.compareUnsigned(Keys.longKey(Long.MAX_VALUE), Keys.RUN_ID_END)).isNegative();
    assertThat(Keys.name(Keys.agentStats("s", "i", "v"), 0, 2)).isEqualTo("v");
    assertThat(Keys.prefixEnd(new byte[] {1, (byte) 0xFF})).containsExactly(2);
  }
}
