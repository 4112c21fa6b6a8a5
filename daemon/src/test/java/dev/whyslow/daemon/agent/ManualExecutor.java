package dev.whyslow.daemon.agent;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.AbstractExecutorService;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;

/** An executor the test steps by hand, so ingest runs on the test thread in a known order. */
final class ManualExecutor extends AbstractExecutorService {
  private final Deque<Runnable> tasks = new ArrayDeque<>();
  private boolean shutdown;

  @Override
  public void execute(Runnable task) {
    if (shutdown) {
      throw new RejectedExecutionException("shut down");
    }
    tasks.add(task);
  }

  int pending() {
    return tasks.size();
  }

  /** Runs one task; returns false if there was none. */
  boolean runOne() {
    Runnable task = tasks.poll();
    if (task == null) {
      return false;
    }
    task.run();
    return true;
  }

  void runAll() {
    while (runOne()) {
      // keep going
    }
  }

  @Override
  public void shutdown() {
    shutdown = true;
  }

  @Override
  public List<Runnable> shutdownNow() {
    shutdown = true;
    List<Runnable> left = List.copyOf(tasks);
    tasks.clear();
    return left;
  }

  @Override
  public boolean isShutdown() {
    return shutdown;
  }

  @Override
  public boolean isTerminated() {
    return shutdown && tasks.isEmpty();
  }

  @Override
  public boolean awaitTermination(long timeout, TimeUnit unit) {
    runAll();
    return true;
  }
}
