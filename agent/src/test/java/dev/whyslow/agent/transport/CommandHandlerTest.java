package dev.whyslow.agent.transport;

import static org.assertj.core.api.Assertions.assertThat;

import dev.whyslow.protocol.HelloOk;
import dev.whyslow.protocol.SetEnabled;
import dev.whyslow.protocol.SetSamplingRate;
import dev.whyslow.protocol.SetThresholds;
import dev.whyslow.protocol.Threshold;
import io.netty.channel.embedded.EmbeddedChannel;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

class CommandHandlerTest {
  private final RecordingLog log = new RecordingLog();
  private final TransportCounters counters = new TransportCounters();
  private final List<Object> received = new CopyOnWriteArrayList<>();

  private EmbeddedChannel channel(CommandListener listener) {
    return new EmbeddedChannel(new CommandHandler(listener, "daemon:7000", counters, log.log));
  }

  @Test
  void samplingRateAndKillSwitchReachTheListener() {
    EmbeddedChannel channel =
        channel(
            new CommandListener() {
              @Override
              public void onSamplingRate(double rate) {
                received.add(rate);
              }

              @Override
              public void onEnabled(boolean enabled) {
                received.add(enabled);
              }
            });

    channel.writeInbound(new SetSamplingRate(0.001), new SetEnabled(false));

    assertThat(received).containsExactly(0.001, false);
    assertThat(channel.<Object>readInbound()).isNull();
  }

  @Test
  void aThrowingListenerIsCountedReportedOnceAndTheConnectionStaysOpen() {
    EmbeddedChannel channel =
        channel(
            new CommandListener() {
              @Override
              public void onSamplingRate(double rate) {
                throw new IllegalStateException("sampler not ready");
              }

              @Override
              public void onEnabled(boolean enabled) {
                throw new IllegalStateException("sampler not ready");
              }
            });

    channel.writeInbound(new SetSamplingRate(0.5));
    channel.writeInbound(new SetEnabled(true));

    assertThat(channel.isOpen()).isTrue();
    assertThat(counters.errors.sum()).isEqualTo(2);
    assertThat(log.lines)
        .containsExactly(
            "[whyslow] applying the daemon's command set-sampling-rate 0.5 failed:"
                + " java.lang.IllegalStateException: sampler not ready");
  }

  @Test
  void aMessageTheDaemonShouldNeverSendIsReportedOnceAndIgnored() {
    EmbeddedChannel channel = channel(CommandListener.NOOP);

    channel.writeInbound(new HelloOk("1.0", 4096));
    channel.writeInbound(new HelloOk("1.0", 4096));

    assertThat(channel.isOpen()).isTrue();
    assertThat(log.lines)
        .containsExactly("[whyslow] daemon at daemon:7000 sent an unexpected HelloOk; ignored");
    assertThat(counters.errors.sum()).isEqualTo(2);
  }

  @Test
  void thresholdsReachTheListener() {
    List<List<Threshold>> got = new CopyOnWriteArrayList<>();
    EmbeddedChannel channel =
        channel(
            new CommandListener() {
              @Override
              public void onSamplingRate(double rate) {}

              @Override
              public void onEnabled(boolean enabled) {}

              @Override
              public void onThresholds(List<Threshold> thresholds) {
                got.add(thresholds);
              }
            });
    Threshold t = new Threshold("A.handle", 5_000, 300);
    channel.writeInbound(new SetThresholds(List.of(t)));
    assertThat(got).containsExactly(List.of(t));
    assertThat(channel.isOpen()).isTrue();
  }
}
