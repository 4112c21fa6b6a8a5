package dev.whyslow.daemon.demo;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.whyslow.daemon.DemoLauncher;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class CombinedDemoLauncherTest {
  private final List<String> events = new ArrayList<>();

  private DemoLauncher recording(String name) {
    return daemon -> {
      events.add("start " + name);
      return () -> events.add("stop " + name);
    };
  }

  @Test
  void startsEveryDemoAndStopsThemInReverseOrder() throws Exception {
    AutoCloseable both =
        new CombinedDemoLauncher(List.of(recording("process"), recording("shop"))).launch(null);
    both.close();
    assertThat(events).containsExactly("start process", "start shop", "stop shop", "stop process");
  }

  @Test
  void demoThatCannotStartStopsTheOnesAlreadyStartedAndPassesTheErrorOn() {
    DemoLauncher broken =
        daemon -> {
          throw new IOException("examples jar not found");
        };
    assertThatThrownBy(
            () -> new CombinedDemoLauncher(List.of(recording("process"), broken)).launch(null))
        .hasMessage("examples jar not found");
    assertThat(events).containsExactly("start process", "stop process");
  }

  @Test
  void everyDemoIsStoppedEvenWhenOneFailsToStop() throws Exception {
    DemoLauncher failsToStop =
        daemon ->
            () -> {
              throw new IllegalStateException("stuck");
            };
    AutoCloseable both =
        new CombinedDemoLauncher(List.of(recording("process"), failsToStop)).launch(null);
    assertThatThrownBy(both::close).hasStackTraceContaining("stuck");
    assertThat(events).containsExactly("start process", "stop process");
  }
}
