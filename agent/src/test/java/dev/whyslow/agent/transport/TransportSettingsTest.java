package dev.whyslow.agent.transport;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.whyslow.protocol.MessageCodec;
import org.junit.jupiter.api.Test;

class TransportSettingsTest {
  @Test
  void defaultsFillEverythingButAddressAndHandshake() {
    TransportSettings settings = TransportSettings.defaults("daemon", 7000, TestData.HELLO);

    assertThat(settings.address()).isEqualTo("daemon:7000");
    assertThat(settings.queueCapacity()).isEqualTo(TransportSettings.DEFAULT_QUEUE_CAPACITY);
    assertThat(settings.maxFrameBytes()).isEqualTo(MessageCodec.DEFAULT_MAX_FRAME_BYTES);
  }

  @Test
  void badValuesAreRefusedWithTheSettingAndTheValue() {
    assertThatThrownBy(() -> TransportSettings.defaults("daemon", 0, TestData.HELLO))
        .hasMessage("daemon port must be in [1, 65535], was 0");
    assertThatThrownBy(() -> TransportSettings.defaults(" ", 7000, TestData.HELLO))
        .hasMessageContaining("daemon host is empty");
    assertThatThrownBy(
            () -> new TransportSettings("daemon", 7000, TestData.HELLO, 0, 1, 1, 1, 1, 1, 1, 4096))
        .hasMessage("queue capacity must be > 0, was 0");
    assertThatThrownBy(
            () ->
                new TransportSettings("daemon", 7000, TestData.HELLO, 1, 1, 1, 1, 100, 10, 1, 4096))
        .hasMessage("reconnect max millis (10) must be >= reconnect initial millis (100)");
    assertThatThrownBy(
            () -> new TransportSettings("daemon", 7000, TestData.HELLO, 1, 1, 1, 1, 1, 1, 1, 10))
        .hasMessage("max frame bytes must be >= 1024, was 10");
  }
}
