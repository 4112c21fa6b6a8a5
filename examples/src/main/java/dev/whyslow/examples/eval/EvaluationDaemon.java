package dev.whyslow.examples.eval;

import dev.whyslow.daemon.RunningDaemon;
import dev.whyslow.daemon.Whyslowd;
import dev.whyslow.daemon.config.DaemonConfig;
import dev.whyslow.protocol.Site;
import dev.whyslow.storage.RunQuery;
import dev.whyslow.storage.StoredRun;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * A real whyslowd, in this process, on a fresh RocksDB directory that is deleted when it closes:
 * the workload JVMs send their runs to it exactly as a service's agent would.
 */
public final class EvaluationDaemon implements AutoCloseable {
  private final Path dataDir;
  private final boolean deleteOnClose;
  private final RunningDaemon daemon;

  private EvaluationDaemon(Path dataDir, boolean deleteOnClose) {
    this.dataDir = dataDir;
    this.deleteOnClose = deleteOnClose;
    this.daemon =
        Whyslowd.start(
            DaemonConfig.defaults()
                .with("data.dir", dataDir.toString())
                .with("agent.bind", "127.0.0.1:0")
                .with("http.bind", "127.0.0.1:0"));
  }

  /** A daemon on a new temporary directory, removed on {@link #close()}. */
  public static EvaluationDaemon startOnTemporaryDirectory() throws IOException {
    return new EvaluationDaemon(Files.createTempDirectory("whyslow-eval"), true);
  }

  /** A daemon on {@code dataDir}, which is kept. */
  public static EvaluationDaemon startOn(Path dataDir) {
    return new EvaluationDaemon(dataDir, false);
  }

  public int agentPort() {
    return daemon.agentPort();
  }

  /**
   * The runs of {@code service}, once {@code expected} of them are stored.
   *
   * @throws IllegalStateException when they do not all arrive within {@code timeout}
   */
  public List<StoredRun> awaitRuns(String service, int expected, Duration timeout)
      throws InterruptedException {
    RunQuery query = RunQuery.forService(service);
    long deadline = System.nanoTime() + timeout.toNanos();
    while (true) {
      List<StoredRun> runs = daemon.store().runs(query);
      if (runs.size() >= expected) {
        return runs;
      }
      if (System.nanoTime() > deadline) {
        throw new IllegalStateException(
            "whyslowd stored "
                + runs.size()
                + " of the "
                + expected
                + " runs of "
                + service
                + " within "
                + timeout
                + "; a workload JVM could not reach the daemon (see its stderr)");
      }
      Thread.sleep(20);
    }
  }

  /** The runs of {@code service} stored so far. */
  public List<StoredRun> runs(String service) {
    return daemon.store().runs(RunQuery.forService(service));
  }

  /** The site table of {@code service} by site key. */
  public Map<Long, Site> sites(String service) {
    Map<Long, Site> sites = new HashMap<>();
    for (Site site : daemon.store().sites(service)) {
      sites.put(site.key(), site);
    }
    return sites;
  }

  @Override
  public void close() {
    daemon.close();
    if (deleteOnClose) {
      try (Stream<Path> files = Files.walk(dataDir)) {
        for (Path file : files.sorted(Comparator.reverseOrder()).toList()) {
          Files.deleteIfExists(file);
        }
      } catch (IOException e) {
        throw new UncheckedIOException("cannot delete the evaluation's data in " + dataDir, e);
      }
    }
  }
}
