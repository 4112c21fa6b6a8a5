package dev.whyslow.protocol;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class MessageCodecTest {

  static final Site SITE =
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

  static final Run RUN =
      new Run(
          3,
          RunKind.PROCESS,
          1_700_000_000_000L,
          12_345_678L,
          Label.FAILURE,
          "",
          1e-4,
          List.of(
              new SiteCounts(SITE.key(), 10, new long[] {7, 3}),
              new SiteCounts(99L, 4, new long[] {0, 4, 4, 4, 0, 4})));

  static List<Message> allMessages() {
    return List.of(
        new Hello(
            MessageCodec.PROTOCOL_VERSION, "checkout", "host-1:42", "1.2.3", "0.1.0", "s3cret"),
        new HelloOk("0.1.0", 1 << 20),
        new ErrorMessage(ErrorCode.BAD_TOKEN, "token rejected", true),
        new SiteBatch(
            List.of(
                SITE,
                new Site(
                    1L, "A", "<init>", "()V", "", -1, SiteKind.RETURN_REFERENCE, -1, "detail ü"))),
        new RunBatch(List.of(RUN, RUN)),
        new AgentStats(1L, 2L, 3L, 4L, 5L, 6L, 7L, 8L, 9L, 10L, Long.MAX_VALUE),
        new SetSamplingRate(0.001),
        new SetEnabled(false),
        new UnitStats(1_700_000_000_000L, 10_000, List.of(HISTOGRAM, HISTOGRAM)),
        new ViolationBatch(
            List.of(
                new Violation(
                    1L,
                    2L,
                    "GET /search",
                    3_000_000L,
                    1_000_000L,
                    ViolationCause.WATCHDOG,
                    "worker-1",
                    List.of("com.acme.Search.scan(Search.java:12)", "com.acme.Router.handle"),
                    17L))),
        new UnitTypeBatch(
            List.of(
                new UnitTypeInfo(
                    "Router.handle/Search.scan",
                    "com.acme.Router.handle",
                    List.of("Router.handle > Search.scan"),
                    List.of("com.acme.Search.scan")))),
        new SetThresholds(List.of(new Threshold("GET /search", 25_000_000L, 400))));
  }

  static final UnitHistogram HISTOGRAM = histogram(3, 1_000_000L);

  static UnitHistogram histogram(long count, long each) {
    long[] buckets = new long[UnitHistogram.BUCKETS];
    buckets[UnitHistogram.bucketOf(each)] = count;
    return new UnitHistogram(
        "GET /search", count, count * each, count * (double) each * each, each, each, 1, buckets);
  }

  @Test
  void unitHistogramsWhoseBucketsDisagreeWithTheirCountAreRejected() throws Exception {
    WireWriter out = new WireWriter(64).writeByte(MessageCodec.UNIT_STATS).writeLong(1);
    out.writeVarLong(1000).writeVarInt(1).writeString("t").writeVarLong(5).writeVarLong(50);
    out.writeDouble(500).writeVarLong(10).writeVarLong(10).writeVarLong(0);
    for (int b = 0; b < UnitHistogram.BUCKETS; b++) {
      out.writeVarLong(b == 0 ? 4 : 0);
    }
    assertThatThrownBy(() -> MessageCodec.decode(out.toByteArray()))
        .isInstanceOf(MalformedMessageException.class)
        .hasMessageContaining("hold 4 units but count is 5");
    assertThat(UnitHistogram.bucketOf(100_000L)).isZero();
    assertThat(UnitHistogram.bucketOf(100_001L)).isEqualTo(1);
    assertThat(UnitHistogram.bucketOf(Long.MAX_VALUE)).isEqualTo(UnitHistogram.BUCKETS - 1);
  }

  @Test
  void everyMessageRoundTripsThroughItsFrameBody() throws Exception {
    for (Message message : allMessages()) {
      Message decoded = MessageCodec.decode(MessageCodec.encode(message));
      assertThat(decoded).as(message.getClass().getSimpleName()).isEqualTo(message);
    }
  }

  @Test
  void frameCarriesTheBodyLengthAsBigEndianPrefix() throws Exception {
    byte[] frame = MessageCodec.encodeFrame(RUN_BATCH);
    int length =
        ((frame[0] & 0xff) << 24)
            | ((frame[1] & 0xff) << 16)
            | ((frame[2] & 0xff) << 8)
            | (frame[3] & 0xff);
    assertThat(length).isEqualTo(frame.length - 4);
    assertThat(MessageCodec.decode(frame, 4, length)).isEqualTo(RUN_BATCH);
  }

  static final RunBatch RUN_BATCH = new RunBatch(List.of(RUN));

  @Test
  void everyTruncationIsRejectedWithAReason() {
    for (Message message : allMessages()) {
      byte[] body = MessageCodec.encode(message);
      for (int cut = 0; cut < body.length; cut++) {
        byte[] truncated = Arrays.copyOf(body, cut);
        assertThatThrownBy(() -> MessageCodec.decode(truncated))
            .as("%s cut at %d", message.getClass().getSimpleName(), cut)
            .isInstanceOf(MalformedMessageException.class)
            .hasMessageNotContaining("null");
      }
    }
  }

  @Test
  void trailingBytesAreRejected() {
    byte[] body = MessageCodec.encode(new SetEnabled(true));
    byte[] longer = Arrays.copyOf(body, body.length + 1);
    assertThatThrownBy(() -> MessageCodec.decode(longer))
        .isInstanceOf(MalformedMessageException.class)
        .hasMessageContaining("trailing");
  }

  @Test
  void unknownTypeIsRejected() {
    assertThatThrownBy(() -> MessageCodec.decode(new byte[] {(byte) 0x7f}))
        .isInstanceOf(MalformedMessageException.class)
        .hasMessageContaining("unknown message type 127");
  }

  @Test
  void hugeCountsAreRejectedBeforeAllocating() {
    WireWriter out = new WireWriter(16).writeByte(MessageCodec.RUNS).writeVarInt(Integer.MAX_VALUE);
    assertThatThrownBy(() -> MessageCodec.decode(out.toByteArray()))
        .isInstanceOf(MalformedMessageException.class)
        .hasMessageContaining("run count");
  }

  @Test
  void valuesOutsideTheirRangeAreRejected() {
    byte[] rate = MessageCodec.encode(new SetSamplingRate(0.5));
    // Overwrite the double with 2.0: not a probability.
    byte[] bad =
        new WireWriter(9).writeByte(MessageCodec.SET_SAMPLING_RATE).writeDouble(2.0).toByteArray();
    assertThat(rate.length).isEqualTo(bad.length);
    assertThatThrownBy(() -> MessageCodec.decode(bad))
        .isInstanceOf(MalformedMessageException.class)
        .hasMessageContaining("sampling rate");
  }

  @Test
  void trueCountAboveObservedIsRejected() {
    WireWriter out = new WireWriter(64).writeByte(MessageCodec.RUNS).writeVarInt(1);
    out.writeVarLong(1).writeByte(RunKind.UNIT.code()).writeLong(1).writeVarLong(1);
    out.writeByte(Label.SUCCESS.code()).writeString("GET /").writeDouble(1.0);
    out.writeVarInt(1).writeLong(5).writeVarLong(2).writeVarInt(2).writeVarLong(3).writeVarLong(0);
    assertThatThrownBy(() -> MessageCodec.decode(out.toByteArray()))
        .isInstanceOf(MalformedMessageException.class)
        .hasMessageContaining("outside [0, observed=2]");
  }

  @Test
  void invalidUtf8IsRejected() {
    byte[] body =
        new WireWriter(8)
            .writeByte(MessageCodec.HELLO_OK)
            .writeVarInt(2)
            .writeByte(0xC3)
            .writeByte(0x28)
            .writeVarInt(1)
            .toByteArray();
    assertThatThrownBy(() -> MessageCodec.decode(body))
        .isInstanceOf(MalformedMessageException.class)
        .hasMessageContaining("UTF-8");
  }

  @Test
  void randomGarbageNeverEscapesAsAnotherException() {
    SplittableRandom random = new SplittableRandom(42);
    for (int i = 0; i < 20_000; i++) {
      byte[] garbage = new byte[random.nextInt(1, 64)];
      for (int b = 0; b < garbage.length; b++) {
        garbage[b] = (byte) random.nextInt(256);
      }
      garbage[0] = (byte) random.nextInt(1, 10); // mostly valid types, to reach deep into decoding
      try {
        MessageCodec.decode(garbage);
      } catch (MalformedMessageException expected) {
        // fine: a clear rejection
      }
    }
  }

  @Test
  void helloNeverPrintsItsToken() {
    Hello hello = new Hello(1, "s", "i", "v", "a", "s3cret");
    assertThat(hello.toString()).doesNotContain("s3cret");
  }
}
