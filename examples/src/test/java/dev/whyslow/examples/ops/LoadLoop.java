package dev.whyslow.examples.ops;

import dev.whyslow.examples.shop.LoadGenerator;
import dev.whyslow.examples.shop.LoadOptions;
import dev.whyslow.examples.shop.LoadReport;
import java.io.IOException;

/**
 * Shop traffic in the background for an operations test: the load generator in five-second runs at
 * a fixed rate, until closed; the last run's summary is kept for the log of a failed test.
 */
final class LoadLoop implements AutoCloseable {
  static final String MIX = "search=60,product=20,cart=15,checkout=5";

  private final Thread thread;
  private volatile boolean running = true;
  private volatile String lastReport = "(none yet)";

  LoadLoop(String url, int ratePerSecond) {
    thread =
        new Thread(
            () -> {
              while (running) {
                try {
                  LoadReport report =
                      LoadGenerator.run(
                          LoadOptions.parse(
                              "--url",
                              url,
                              "--rate",
                              Integer.toString(ratePerSecond),
                              "--duration",
                              "5s",
                              "--warmup",
                              "0s",
                              "--mix",
                              MIX,
                              "--connections",
                              "8"));
                  lastReport = report.toText();
                } catch (IOException e) {
                  lastReport = "load failed: " + e;
                } catch (InterruptedException e) {
                  return;
                }
              }
            },
            "ops-load");
    thread.setDaemon(true);
    thread.start();
  }

  String lastReport() {
    return lastReport;
  }

  @Override
  public void close() {
    running = false;
    try {
      thread.join(30_000);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
