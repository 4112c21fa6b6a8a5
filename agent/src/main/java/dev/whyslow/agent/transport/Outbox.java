package dev.whyslow.agent.transport;

import dev.whyslow.protocol.Message;
import dev.whyslow.protocol.Run;
import dev.whyslow.protocol.Site;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedDeque;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * What waits to be sent: a bounded queue of runs that application threads fill without locks, and
 * every site announced so far. It outlives connections; the transport thread is its only consumer.
 */
final class Outbox {
  /** Most other messages (unit statistics, violations, unit types) waiting; more are dropped. */
  static final int MESSAGE_CAPACITY = 256;

  /** Messages waiting at which the transport is woken before its batch timer fires. */
  static final int MESSAGE_WAKE_AT = MESSAGE_CAPACITY / 2;

  private final int capacity;
  private final ConcurrentLinkedQueue<Message> messages = new ConcurrentLinkedQueue<>();
  private final AtomicInteger messageCount = new AtomicInteger();
  private final int batchMaxRuns;
  private final ConcurrentLinkedDeque<Run> runs = new ConcurrentLinkedDeque<>();
  // Counted separately because ConcurrentLinkedDeque.size() walks the whole deque.
  private final AtomicInteger size = new AtomicInteger();
  private final List<Site> sites = new ArrayList<>();
  private volatile Runnable onBatchReady;
  private volatile CompletableFuture<Void> flushRequest;

  Outbox(int capacity, int batchMaxRuns) {
    this.capacity = capacity;
    this.batchMaxRuns = batchMaxRuns;
  }

  /** Queues a run unless the queue is full; never blocks. */
  boolean offer(Run run) {
    if (size.incrementAndGet() > capacity) {
      size.decrementAndGet();
      return false;
    }
    runs.offerLast(run);
    Runnable signal = onBatchReady;
    if (signal != null && size.get() >= batchMaxRuns) {
      signal.run();
    }
    return true;
  }

  Run poll() {
    Run run = runs.pollFirst();
    if (run != null) {
      size.decrementAndGet();
    }
    return run;
  }

  /** Puts back a run that did not fit the batch being cut, so it leads the next one. */
  void pushBack(Run run) {
    size.incrementAndGet();
    runs.offerFirst(run);
  }

  int size() {
    return Math.max(0, size.get());
  }

  boolean isEmpty() {
    return runs.isEmpty() && messages.isEmpty();
  }

  /**
   * Queues a message other than a run unless too many wait; never blocks. Messages go out with the
   * next batch, as runs do, rather than wake the transport each: a service whose units keep
   * crossing their thresholds queued a violation batch at every tick of the units' thread, and each
   * woke the transport for a write of its own (four a second, most of the agent threads' CPU on the
   * example shop; bench/LATENCY.md). Only a queue half full wakes it early.
   */
  boolean offerMessage(Message message) {
    int queued = messageCount.incrementAndGet();
    if (queued > MESSAGE_CAPACITY) {
      messageCount.decrementAndGet();
      return false;
    }
    messages.offer(message);
    Runnable signal = onBatchReady;
    if (signal != null && queued == MESSAGE_WAKE_AT) {
      signal.run();
    }
    return true;
  }

  Message pollMessage() {
    Message m = messages.poll();
    if (m != null) {
      messageCount.decrementAndGet();
    }
    return m;
  }

  /** Empties the message queue and says how many were in it; they are lost. */
  int drainMessages() {
    int drained = 0;
    while (pollMessage() != null) {
      drained++;
    }
    return drained;
  }

  /** Empties the queue and says how many runs were in it; they are lost. */
  int drainAll() {
    int drained = 0;
    while (poll() != null) {
      drained++;
    }
    return drained;
  }

  /** Installs what to call when a full batch is waiting; {@code null} while disconnected. */
  void onBatchReady(Runnable signal) {
    onBatchReady = signal;
  }

  /** Clears the signal only if it is still {@code signal}, so a newer connection keeps its own. */
  void clearBatchReady(Runnable signal) {
    if (onBatchReady == signal) {
      onBatchReady = null;
    }
  }

  /** Set at shutdown: completed by the sender once the queue is empty and nothing is in flight. */
  void requestFlush(CompletableFuture<Void> done) {
    flushRequest = done;
  }

  CompletableFuture<Void> flushRequest() {
    return flushRequest;
  }

  synchronized void addSites(List<Site> more) {
    sites.addAll(more);
  }

  synchronized int siteCount() {
    return sites.size();
  }

  synchronized Site site(int index) {
    return sites.get(index);
  }
}
