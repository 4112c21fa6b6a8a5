package dev.whyslow.daemon;

import java.util.ServiceLoader;

/**
 * Starts the demo workload against a running daemon when whyslowd is given {@code --demo}. The
 * workload lives outside this module; it is found with {@link ServiceLoader} (a {@code
 * META-INF/services/dev.whyslow.daemon.DemoLauncher} entry) or passed to {@link
 * Whyslowd.Builder#demo}.
 */
public interface DemoLauncher {
  /** Starts the demo; the returned handle stops it when the daemon shuts down. */
  AutoCloseable launch(RunningDaemon daemon) throws Exception;
}
