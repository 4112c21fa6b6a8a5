package dev.whyslow.daemon.agent;

import io.netty.channel.Channel;
import java.lang.System.Logger.Level;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The single thread that writes agent data to the store, off the event loops. The queue is bounded
 * by the estimated bytes of work waiting: past the limit, the channel that submitted is paused
 * ({@code setAutoRead(false)}) so TCP pushes back on the agent; below half the limit, paused
 * channels read again. Nothing accepted is dropped, and one thread keeps each connection's sites
 * ahead of the runs that use them.
 */
public final class IngestQueue implements AutoCloseable {
  private static final System.Logger LOG = System.getLogger(IngestQueue.class.getName());

  private final long maxQueuedBytes;
  private final AtomicLong queuedBytes = new AtomicLong();
  private final Set<Channel> paused = ConcurrentHashMap.newKeySet();
  private final ExecutorService executor;

  public IngestQueue(long maxQueuedBytes) {
    this(maxQueuedBytes, singleThread());
  }

  /**
   * Runs tasks on {@code executor}, which must run them one at a time in submission order (tests
   * pass one they step by hand).
   */
  public IngestQueue(long maxQueuedBytes, ExecutorService executor) {
    this.maxQueuedBytes = maxQueuedBytes;
    this.executor = executor;
  }

  private static ExecutorService singleThread() {
    return new ThreadPoolExecutor(
        1,
        1,
        0,
        TimeUnit.MILLISECONDS,
        new LinkedBlockingQueue<>(),
        r -> {
          Thread t = new Thread(r, "whyslowd-ingest");
          t.setDaemon(true);
          return t;
        });
  }

  /**
   * Queues {@code task}, which costs about {@code costBytes} of memory until it ran. Returns false
   * if the queue is closed (the daemon is shutting down) and the task will not run.
   */
  public boolean submit(Channel channel, long costBytes, Runnable task) {
    queuedBytes.addAndGet(costBytes);
    try {
      executor.execute(() -> run(task, costBytes));
    } catch (RejectedExecutionException e) {
      queuedBytes.addAndGet(-costBytes);
      return false;
    }
    if (queuedBytes.get() > maxQueuedBytes) {
      channel.config().setAutoRead(false);
      paused.add(channel);
      // The ingest thread may have drained everything between our add and the pause: check again
      // so that a paused channel is never forgotten.
      if (queuedBytes.get() <= maxQueuedBytes / 2) {
        resumePaused();
      }
    }
    return true;
  }

  private void run(Runnable task, long costBytes) {
    try {
      task.run();
    } catch (RuntimeException e) {
      LOG.log(Level.ERROR, "ingest task failed", e);
    } finally {
      if (queuedBytes.addAndGet(-costBytes) <= maxQueuedBytes / 2 && !paused.isEmpty()) {
        resumePaused();
      }
    }
  }

  private void resumePaused() {
    for (Channel channel : paused) {
      if (paused.remove(channel)) {
        channel.eventLoop().execute(() -> channel.config().setAutoRead(true));
      }
    }
  }

  /** Estimated bytes of agent data waiting to be written. */
  public long queuedBytes() {
    return queuedBytes.get();
  }

  /** Channels not read from right now because the store is behind. */
  public int pausedChannels() {
    return paused.size();
  }

  /** Runs every queued task, then stops; waits at most {@code timeout}. */
  public boolean drain(Duration timeout) throws InterruptedException {
    executor.shutdown();
    return executor.awaitTermination(timeout.toMillis(), TimeUnit.MILLISECONDS);
  }

  @Override
  public void close() {
    try {
      if (!drain(Duration.ofSeconds(30))) {
        LOG.log(Level.WARNING, "ingest queue did not drain in 30 s; stopping it");
        executor.shutdownNow();
      }
    } catch (InterruptedException e) {
      executor.shutdownNow();
      Thread.currentThread().interrupt();
    }
  }
}
