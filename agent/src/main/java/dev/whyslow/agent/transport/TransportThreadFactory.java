package dev.whyslow.agent.transport;

import io.netty.util.concurrent.FastThreadLocalThread;
import java.util.concurrent.ThreadFactory;

/**
 * Makes the transport's one thread: named {@value #THREAD_NAME}, a daemon so it never keeps the JVM
 * alive, and running the agent's hook first (so probes can recognise and ignore it).
 */
final class TransportThreadFactory implements ThreadFactory {
  static final String THREAD_NAME = "whyslow-transport";

  private final Runnable onThreadStart;
  private final OnceLog log;

  TransportThreadFactory(Runnable onThreadStart, OnceLog log) {
    this.onThreadStart = onThreadStart;
    this.log = log;
  }

  @Override
  public Thread newThread(Runnable task) {
    Thread thread =
        new FastThreadLocalThread(
            () -> {
              try {
                onThreadStart.run();
              } catch (Throwable t) {
                log.report("thread-hook", "transport thread start hook failed: " + t);
              }
              task.run();
            },
            THREAD_NAME);
    thread.setDaemon(true);
    return thread;
  }
}
