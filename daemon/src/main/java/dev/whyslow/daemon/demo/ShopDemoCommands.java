package dev.whyslow.daemon.demo;

import java.io.File;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The command lines of the shop demo's two child JVMs, each run through {@link ParentWatch} so it
 * exits when whyslowd does.
 *
 * @param watchClassPath where {@link ParentWatch} is (whyslowd's own jar or classes)
 * @param parentPid whyslowd's pid
 */
record ShopDemoCommands(
    String java,
    Path agentJar,
    Path examplesJar,
    Path watchClassPath,
    int agentPort,
    long parentPid) {
  static final String SERVICE = "shop-demo";
  static final String SHOP = "dev.whyslow.examples.shop.ShopService";
  static final String LOAD = "dev.whyslow.examples.shop.LoadGenerator";

  /** Requests per second: modest, so the demo leaves room on a 2-core machine. */
  static final int RATE = 40;

  /** Each load generator run; a new one follows, so its exact latency record stays small. */
  static final String LOAD_DURATION = "30m";

  /** Short, so the daemon sees unit histograms soon after the shop starts. */
  static final String STATS_INTERVAL = "2s";

  /** The shop under the agent, on a free port; it prints {@code shop listening on PORT}. */
  List<String> shop() {
    String agentArgs =
        "service="
            + SERVICE
            + ",include=dev.whyslow.examples.shop"
            + ",units.stats.interval="
            + STATS_INTERVAL
            + ",daemon=127.0.0.1:"
            + agentPort;
    List<String> command = new ArrayList<>();
    command.add(java);
    command.add("-javaagent:" + agentJar + "=" + agentArgs);
    command.addAll(watched(SHOP));
    command.addAll(List.of("--port", "0", "--threads", "4"));
    return command;
  }

  /** The load generator (no agent) at {@link #RATE} against the shop on {@code shopPort}. */
  List<String> load(int shopPort) {
    List<String> command = new ArrayList<>();
    command.add(java);
    command.addAll(watched(LOAD));
    command.addAll(
        List.of(
            "--url",
            "http://127.0.0.1:" + shopPort,
            "--rate",
            Integer.toString(RATE),
            "--warmup",
            "0s",
            "--duration",
            LOAD_DURATION));
    return command;
  }

  private List<String> watched(String mainClass) {
    return List.of(
        "-cp",
        examplesJar + File.pathSeparator + watchClassPath,
        ParentWatch.class.getName(),
        Long.toString(parentPid),
        mainClass);
  }

  /** The shop's {@code POST /admin/bug?share=} URL that turns the wildcard bug on. */
  static String bugUrl(int shopPort, double share) {
    return String.format(Locale.ROOT, "http://127.0.0.1:%d/admin/bug?share=%s", shopPort, share);
  }
}
