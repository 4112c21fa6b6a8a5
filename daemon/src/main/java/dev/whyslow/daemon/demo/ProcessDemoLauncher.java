package dev.whyslow.daemon.demo;

import dev.whyslow.daemon.DemoLauncher;
import dev.whyslow.daemon.RunningDaemon;
import java.io.IOException;
import java.io.PrintStream;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * {@code whyslowd --demo}: runs the examples' {@code DemoWorkload} again and again in child JVMs
 * under the agent, alternating good inputs (labelled success) and bad ones (labelled failure), so a
 * newcomer sees runs arrive in the API and in {@code /metrics}. The jars are found next to the
 * daemon's build ({@code agent/target/whyslow-agent.jar}, {@code
 * examples/target/whyslow-examples.jar}) or through the system properties {@code
 * whyslow.demo.agent.jar} and {@code whyslow.demo.examples.jar}.
 */
public final class ProcessDemoLauncher implements DemoLauncher {
  static final String SERVICE = "demo";
  static final String WORKLOAD = "dev.whyslow.examples.demo.DemoWorkload";

  /** The first runs come quickly so there is something to see; later ones are spaced out. */
  static final int QUICK_RUNS = 20;

  static final long QUICK_PAUSE_MILLIS = 200;
  static final long SLOW_PAUSE_MILLIS = 5_000;

  private final PrintStream out;

  public ProcessDemoLauncher() {
    this(System.out);
  }

  ProcessDemoLauncher(PrintStream out) {
    this.out = out;
  }

  @Override
  public AutoCloseable launch(RunningDaemon daemon) throws IOException {
    Path agentJar = locate("whyslow.demo.agent.jar", "agent/target/whyslow-agent.jar");
    Path examplesJar = locate("whyslow.demo.examples.jar", "examples/target/whyslow-examples.jar");
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    String api = daemon.httpUri().toString().replaceAll("/$", "");
    out.println("demo: running " + WORKLOAD + " under the agent as service '" + SERVICE + "'");
    out.println("demo: good inputs are labelled success, bad ones (a quadratic merge) failure");
    out.println("demo: see the runs:   curl '" + api + "/api/v1/runs?service=" + SERVICE + "'");
    out.println("demo: or the sites:   curl '" + api + "/api/v1/services/" + SERVICE + "/sites'");
    out.println("demo: and metrics:    curl '" + api + "/metrics'");
    out.println("demo: stop with Ctrl-C");
    DemoLoop loop = new DemoLoop(java, agentJar, examplesJar, daemon.agentPort(), out);
    Thread thread = new Thread(loop, "whyslow-demo");
    thread.setDaemon(true);
    thread.start();
    return () -> {
      loop.stop();
      thread.interrupt();
      thread.join(TimeUnit.SECONDS.toMillis(10));
    };
  }

  /**
   * The jar named by {@code property}, or {@code relative} under the source tree whyslowd runs
   * from.
   */
  static Path locate(String property, String relative) throws IOException {
    String configured = System.getProperty(property);
    Path jar = configured != null ? Path.of(configured) : projectRoot().resolve(relative);
    if (!Files.isRegularFile(jar)) {
      throw new IOException(
          jar
              + " not found; build everything first with `mvn -DskipTests package` from the"
              + " repository root, or point -D"
              + property
              + " at the jar");
    }
    return jar;
  }

  /** whyslowd.jar lives in {@code <root>/daemon/target/}; the demo jars are built beside it. */
  static Path projectRoot() throws IOException {
    try {
      Path self =
          Path.of(
              ProcessDemoLauncher.class
                  .getProtectionDomain()
                  .getCodeSource()
                  .getLocation()
                  .toURI());
      Path root = self.getParent() == null ? null : self.getParent().getParent();
      if (root == null || root.getParent() == null) {
        throw new IOException("cannot tell where the Whyslow build is from " + self);
      }
      return root.getParent();
    } catch (URISyntaxException | SecurityException e) {
      throw new IOException("cannot tell where whyslowd.jar is: " + e.getMessage(), e);
    }
  }

  static List<String> command(
      String java, Path agentJar, Path examplesJar, int agentPort, boolean bad, long seed) {
    String agentArgs =
        "service="
            + SERVICE
            + ",version=1.0,include=dev.whyslow.examples.demo"
            + ",sampling.rate=0.001,label="
            + (bad ? "failure" : "success")
            + ",daemon=127.0.0.1:"
            + agentPort;
    return List.of(
        java,
        "-javaagent:" + agentJar + "=" + agentArgs,
        "-cp",
        examplesJar.toString(),
        WORKLOAD,
        bad ? "bad" : "good",
        Long.toString(seed));
  }
}
