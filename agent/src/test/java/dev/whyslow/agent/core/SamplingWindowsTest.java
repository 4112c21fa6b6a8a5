package dev.whyslow.agent.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.whyslow.agent.bootstrap.Probes;
import dev.whyslow.agent.config.InvocationSampling;
import dev.whyslow.agent.config.LogLevel;
import dev.whyslow.agent.config.SamplingWindowSettings;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The windows' states on a clock the test moves, with a gate that records each change. */
class SamplingWindowsTest {
  private static final long S = 1_000_000_000L;

  private final AtomicLong now = new AtomicLong(1_000 * S);
  private final List<Boolean> forms = new ArrayList<>(); // closed or not, at each change
  private final AtomicBoolean closed = new AtomicBoolean(false); // as the gate left the entries
  private final AtomicReference<String> blocked = new AtomicReference<>(null);
  private final AtomicBoolean settled = new AtomicBoolean(true);
  private final AtomicBoolean refuse = new AtomicBoolean(false);
  private final ByteArrayOutputStream logged = new ByteArrayOutputStream();
  private final SamplingPlan plan =
      new SamplingPlan(new InvocationSampling(true, 0.05, 0.01, 1_000), 1e-4, null);

  @AfterEach
  void restoreProbes() {
    Probes.setSamplingRate(1e-4);
  }

  private SamplingWindows windows(SamplingWindowSettings settings) {
    plan.setRate(1e-4);
    return new SamplingWindows(
        settings,
        plan,
        new SamplingWindows.Gate() {
          @Override
          public void close() {
            change(true);
          }

          @Override
          public void open() {
            change(false);
          }
        },
        blocked::get,
        settled::get,
        now::get,
        new AgentLog(LogLevel.INFO, new PrintStream(logged, true, StandardCharsets.UTF_8)));
  }

  private void change(boolean close) {
    if (refuse.get() && close) {
      throw new IllegalStateException("closing failed");
    }
    forms.add(close);
    closed.set(close);
  }

  private String log() {
    return logged.toString(StandardCharsets.UTF_8);
  }

  @Test
  void waitsUntilTheServiceHasSettledThenKeepsTheProbesInForOneWindowEveryPeriod() {
    SamplingWindows w = windows(new SamplingWindowSettings(true, 30_000, 300_000));
    w.poll();
    assertThat(w.state()).isEqualTo(SamplingWindows.State.WAITING); // too early to say
    blocked.set("");
    settled.set(false);
    w.poll();
    assertThat(w.state()).isEqualTo(SamplingWindows.State.WAITING); // the JIT still compiles
    settled.set(true);

    w.poll();
    assertThat(w.state()).as(log()).isEqualTo(SamplingWindows.State.OPEN);
    assertThat(forms).isEmpty(); // the entries are open already
    // Ten times the rate over the window, and ten times the share of invocations that run their
    // probes (the warm-up share here), so those sample at the rate they do outside windows.
    assertThat(Probes.samplingRate()).isCloseTo(1e-3, within(1e-12));
    assertThat(Probes.invocationShare()).isCloseTo(0.5, within(1e-12));
    assertThat(log()).contains("the probes stay in for 30.0s every 300.0s");

    now.addAndGet(29 * S);
    w.poll();
    assertThat(w.state()).isEqualTo(SamplingWindows.State.OPEN);
    now.addAndGet(1 * S);
    w.poll();
    assertThat(w.state()).isEqualTo(SamplingWindows.State.DORMANT);
    assertThat(forms).containsExactly(true);
    assertThat(Probes.samplingRate()).isEqualTo(1e-4);
    assertThat(Probes.invocationShare()).isEqualTo(0.05);
    assertThat(log())
        .contains("instrumented methods run their own code until the next sampling window");

    now.addAndGet(270 * S);
    w.poll();
    assertThat(w.state()).isEqualTo(SamplingWindows.State.OPEN);
    assertThat(forms).containsExactly(true, false);
    assertThat(closed).isFalse();
    assertThat(Probes.samplingRate()).isCloseTo(1e-3, within(1e-12));
    assertThat(w.windowsOpened()).isEqualTo(2);
  }

  @Test
  void theRaiseStopsWhereEveryInvocationWouldRunItsProbes() {
    SamplingWindows w = windows(new SamplingWindowSettings(true, 1_000, 60_000));
    blocked.set("");
    w.poll();

    assertThat(w.state()).isEqualTo(SamplingWindows.State.OPEN);
    // The share 0.05 can only be raised twentyfold, not sixty times; the rate with it.
    assertThat(Probes.invocationShare()).isEqualTo(1.0);
    assertThat(Probes.samplingRate()).isCloseTo(2e-3, within(1e-12));
  }

  @Test
  void aReasonStopsThemForGoodAndSaysWhy() {
    SamplingWindows w = windows(new SamplingWindowSettings(true, 30_000, 300_000));
    blocked.set("the guards tell some unit types apart by depth");
    w.poll();
    now.addAndGet(1_000 * S);
    w.poll();

    assertThat(w.state()).isEqualTo(SamplingWindows.State.OFF);
    assertThat(forms).isEmpty();
    assertThat(log())
        .contains("sampling windows off: the guards tell some unit types apart by depth");
  }

  @Test
  void offMeansTheProbesStayIn() {
    SamplingWindows w = windows(SamplingWindowSettings.off());
    blocked.set("");
    w.poll();

    assertThat(w.state()).isEqualTo(SamplingWindows.State.OFF);
    assertThat(forms).isEmpty();
  }

  @Test
  void aFailureStopsTheWindowsAndLeavesTheEntriesOpen() {
    SamplingWindows w = windows(new SamplingWindowSettings(true, 30_000, 300_000));
    blocked.set("");
    refuse.set(true);
    w.poll();
    now.addAndGet(30 * S);
    w.poll();

    assertThat(w.state()).isEqualTo(SamplingWindows.State.OFF);
    assertThat(closed).isFalse();
    assertThat(forms).containsExactly(false); // opened again when they stopped
    assertThat(log())
        .contains("sampling windows stopped: they failed")
        .contains("the probes stay in use all the time");
  }
}
