package dev.whyslow.daemon.demo;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** The demo's thread: one workload JVM at a time, good and bad inputs in turn, until stopped. */
final class DemoLoop implements Runnable {
  private final String java;
  private final Path agentJar;
  private final Path examplesJar;
  private final int agentPort;
  private final PrintStream out;
  private volatile boolean stopped;
  private volatile Process current;

  DemoLoop(String java, Path agentJar, Path examplesJar, int agentPort, PrintStream out) {
    this.java = java;
    this.agentJar = agentJar;
    this.examplesJar = examplesJar;
    this.agentPort = agentPort;
    this.out = out;
  }

  void stop() {
    stopped = true;
    Process process = current;
    if (process != null) {
      process.destroy();
    }
  }

  @Override
  public void run() {
    for (long run = 1; !stopped; run++) {
      boolean bad = run % 2 == 0;
      try {
        runOnce(bad, run);
        long pause =
            run < ProcessDemoLauncher.QUICK_RUNS
                ? ProcessDemoLauncher.QUICK_PAUSE_MILLIS
                : ProcessDemoLauncher.SLOW_PAUSE_MILLIS;
        TimeUnit.MILLISECONDS.sleep(pause);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      } catch (IOException e) {
        out.println("demo: could not start the workload JVM: " + e.getMessage() + "; demo stopped");
        return;
      }
    }
  }

  private void runOnce(boolean bad, long seed) throws IOException, InterruptedException {
    List<String> command =
        ProcessDemoLauncher.command(java, agentJar, examplesJar, agentPort, bad, seed);
    Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
    current = process;
    String output;
    try (var in = process.getInputStream()) {
      output = new String(in.readAllBytes(), StandardCharsets.UTF_8).trim();
    }
    if (!process.waitFor(2, TimeUnit.MINUTES)) {
      process.destroyForcibly();
      out.println("demo: run " + seed + " did not finish in 2 minutes; killed");
      return;
    }
    current = null;
    if (!stopped) {
      out.println("demo: run " + seed + " (" + (bad ? "failure" : "success") + "): " + output);
      if (seed == ProcessDemoLauncher.QUICK_RUNS) {
        out.println(
            "demo: "
                + seed / 2
                + " good and "
                + seed / 2
                + " bad runs stored; ask which loop makes"
                + " the bad ones slow:  daemon/bin/whyslow diagnose demo --model delta-lda");
      }
    }
  }
}
