package dev.whyslow.daemon.demo;

import dev.whyslow.daemon.DemoLauncher;
import dev.whyslow.daemon.RunningDaemon;
import dev.whyslow.storage.StoredThreshold;
import dev.whyslow.storage.ViolationQuery;
import java.io.IOException;
import java.io.PrintStream;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The units half of {@code whyslowd --demo}: the example shop under the agent as service {@code
 * shop-demo}, with a load generator at a fixed rate. Healthy at first, so the agent trains unit
 * types and the daemon computes their thresholds; then a small share of searches hit the wildcard
 * bug, so violations appear. Child output goes to {@code <data dir>/demo/}.
 */
public final class ShopDemoLauncher implements DemoLauncher {
  /** What the command-line client reaches without {@code --server}. */
  static final String DEFAULT_API = "http://127.0.0.1:9721";

  private final PrintStream out;

  public ShopDemoLauncher() {
    this(System.out);
  }

  ShopDemoLauncher(PrintStream out) {
    this.out = out;
  }

  @Override
  public AutoCloseable launch(RunningDaemon daemon) throws IOException {
    Path agentJar =
        ProcessDemoLauncher.locate("whyslow.demo.agent.jar", "agent/target/whyslow-agent.jar");
    Path examplesJar =
        ProcessDemoLauncher.locate(
            "whyslow.demo.examples.jar", "examples/target/whyslow-examples.jar");
    ShopDemoCommands commands =
        new ShopDemoCommands(
            Path.of(System.getProperty("java.home"), "bin", "java").toString(),
            agentJar,
            examplesJar,
            ownClassPath(),
            daemon.agentPort(),
            ProcessHandle.current().pid());
    String api = daemon.httpUri().toString().replaceAll("/$", "");
    String cli = cli(api);
    Path logDir = daemon.config().dataDir().resolve("demo");
    String service = ShopDemoCommands.SERVICE;
    banner(api, cli, logDir).forEach(out::println);
    ShopDemo demo =
        new ShopDemo(
            commands,
            logDir,
            out,
            cli,
            () ->
                daemon.thresholds().thresholds(service).stream()
                    .map(StoredThreshold::unitType)
                    .toList(),
            since ->
                !daemon
                    .store()
                    .violations(
                        ViolationQuery.forService(service)
                            .withWindow(since, Long.MAX_VALUE)
                            .withLimit(1))
                    .isEmpty());
    Thread thread = new Thread(demo, "whyslow-shop-demo");
    thread.setDaemon(true);
    thread.start();
    return () -> {
      demo.stop();
      thread.interrupt();
      thread.join(TimeUnit.SECONDS.toMillis(10));
    };
  }

  /** The lines that tell a newcomer what runs and where to look. */
  static List<String> banner(String api, String cli, Path logDir) {
    String s = ShopDemoCommands.SERVICE;
    return List.of(
        "demo: also running the example shop under the agent as service '"
            + s
            + "', "
            + ShopDemoCommands.RATE
            + " requests/s (output in "
            + logDir
            + ")",
        "demo: healthy until its unit types are trained and have thresholds (about 2 minutes),"
            + " then a wildcard bug slows "
            + Math.round(ShopDemo.BUG_SHARE * 100)
            + "% of searches, "
            + ShopDemo.BUG_ON.toMinutes()
            + " minutes on, "
            + ShopDemo.BUG_OFF.toMinutes()
            + " off",
        "demo: unit types:     curl '"
            + api
            + "/api/v1/units?service="
            + s
            + "'   or  "
            + cli
            + " units "
            + s,
        "demo: thresholds:     curl '"
            + api
            + "/api/v1/thresholds?service="
            + s
            + "'   or  "
            + cli
            + " thresholds "
            + s,
        "demo: violations:     curl '"
            + api
            + "/api/v1/violations?service="
            + s
            + "'   or  "
            + cli
            + " violations "
            + s,
        "demo: why slow:       "
            + cli
            + " diagnose "
            + s
            + " --unit-type TYPE   (TYPE from units)");
  }

  /** {@code daemon/bin/whyslow}, with {@code --server} when the daemon is not on the default. */
  static String cli(String api) {
    return "daemon/bin/whyslow" + (api.equals(DEFAULT_API) ? "" : " --server " + api);
  }

  /** whyslowd's jar (or classes directory), for {@link ParentWatch} in the children. */
  static Path ownClassPath() throws IOException {
    var source = ParentWatch.class.getProtectionDomain().getCodeSource();
    if (source == null) {
      throw new IOException("cannot tell where whyslowd's classes are (no code source)");
    }
    try {
      return Path.of(source.getLocation().toURI());
    } catch (URISyntaxException | SecurityException e) {
      throw new IOException("cannot tell where whyslowd's classes are: " + e, e);
    }
  }
}
