package dev.whyslow.agent.core;

import static org.assertj.core.api.Assertions.assertThat;

import dev.whyslow.agent.bootstrap.Probes;
import dev.whyslow.agent.config.WindowSettings;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The sampling windows: they cycle at production rates with about the configured duty, stay open at
 * high rates, and stay closed while the kill switch is off.
 */
class SamplingWindowsTest {
  private static final WindowSettings FIFTH = new WindowSettings(true, 0.2, 2_000);
  private SamplingWindows windows;

  @AfterEach
  void parkTheWindows() {
    if (windows != null) {
      windows.setEnabled(true);
      windows.setRate(1.0); // stops cycling; its thread waits
    }
    Probes.setSamplingRate(1e-4);
    Probes.openWindow();
  }

  @Test
  void atAProductionRateTheWindowCyclesWithAboutItsDutyAndThreadsDrawAtTheRateOverIt() {
    windows = new SamplingWindows(FIFTH, 1e-4);
    windows.setRate(1e-4);
    assertThat(windows.cycling()).isTrue();
    assertThat(Probes.samplingRate()).as("what runs report").isEqualTo(1e-4);
    // Poll the window for 2 s: ~250 windows of 2 ms, open about a fifth of the time.
    long open = 0;
    long polls = 0;
    long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(2);
    while (System.nanoTime() < end) {
      open += Probes.windowOpen() ? 1 : 0;
      polls++;
      LockSupport.parkNanos(100_000);
    }
    assertThat((double) open / polls).isBetween(0.08, 0.4);
  }

  @Test
  void atAHighRateTheWindowStaysOpen() {
    windows = new SamplingWindows(FIFTH, 1e-4);
    windows.setRate(1e-4);
    windows.setRate(0.5);
    assertThat(windows.cycling()).isFalse();
    assertThat(Probes.windowOpen()).isTrue();
    assertThat(Probes.samplingRate()).isEqualTo(0.5);
  }

  @Test
  void aJvmStartedAtAHighRateKeepsItOpenWhenTheRateGoesDown() {
    windows = new SamplingWindows(FIFTH, 0.5); // classes got no copies to switch between
    windows.setRate(1e-4);
    assertThat(windows.cycling()).isFalse();
    assertThat(Probes.windowOpen()).isTrue();
    assertThat(Probes.samplingRate()).isEqualTo(1e-4);
  }

  @Test
  void windowsOffKeepItOpenAtEveryRate() {
    windows = new SamplingWindows(new WindowSettings(false, 0.2, 2_000), 1e-4);
    windows.setRate(1e-4);
    assertThat(windows.cycling()).isFalse();
    assertThat(Probes.windowOpen()).isTrue();
  }

  @Test
  void theKillSwitchClosesTheWindowUntilItIsOnAgain() {
    windows = new SamplingWindows(FIFTH, 1e-4);
    windows.setRate(1e-4);
    windows.setEnabled(false);
    assertThat(windows.cycling()).isFalse();
    long end = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(300);
    while (System.nanoTime() < end) {
      assertThat(Probes.windowOpen()).as("killed: never open").isFalse();
      LockSupport.parkNanos(200_000);
    }
    windows.setEnabled(true);
    assertThat(windows.cycling()).isTrue();
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (!Probes.windowOpen() && System.nanoTime() < deadline) {
      LockSupport.parkNanos(100_000);
    }
    assertThat(Probes.windowOpen()).as("a window opens again").isTrue();
  }
}
