package dev.whyslow.daemon.demo;

import dev.whyslow.daemon.DemoLauncher;
import dev.whyslow.daemon.RunningDaemon;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code whyslowd --demo}: the process demo ({@link ProcessDemoLauncher}, labelled runs) and the
 * units demo ({@link ShopDemoLauncher}, thresholds and violations) side by side. If one cannot
 * start, those already started are stopped again and the error is passed on.
 */
public final class CombinedDemoLauncher implements DemoLauncher {
  private final List<DemoLauncher> launchers;

  public CombinedDemoLauncher() {
    this(List.of(new ProcessDemoLauncher(), new ShopDemoLauncher()));
  }

  CombinedDemoLauncher(List<DemoLauncher> launchers) {
    this.launchers = List.copyOf(launchers);
  }

  @Override
  public AutoCloseable launch(RunningDaemon daemon) throws Exception {
    List<AutoCloseable> started = new ArrayList<>();
    try {
      for (DemoLauncher launcher : launchers) {
        started.add(launcher.launch(daemon));
      }
    } catch (Exception e) {
      closeAll(started, e);
      throw e;
    }
    return () -> {
      Exception failure = new Exception("stopping the demos failed");
      closeAll(started, failure);
      if (failure.getSuppressed().length > 0) {
        throw failure;
      }
    };
  }

  /** Closes in reverse start order, every one even if some fail; failures go onto {@code into}. */
  private static void closeAll(List<AutoCloseable> started, Exception into) {
    for (int i = started.size() - 1; i >= 0; i--) {
      try {
        started.get(i).close();
      } catch (Exception e) {
        if (e instanceof InterruptedException) {
          Thread.currentThread().interrupt();
        }
        into.addSuppressed(e);
      }
    }
  }
}
