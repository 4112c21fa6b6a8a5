package dev.whyslow.agent.core;

import dev.whyslow.agent.bootstrap.Probes;
import dev.whyslow.agent.bootstrap.UnitListener;
import dev.whyslow.agent.bootstrap.UnitRunCounts;
import dev.whyslow.agent.bootstrap.UnitState;
import dev.whyslow.agent.bootstrap.UnitType;
import dev.whyslow.agent.config.UnitSettings;
import dev.whyslow.protocol.Label;
import dev.whyslow.protocol.Threshold;
import dev.whyslow.protocol.UnitHistogram;
import dev.whyslow.protocol.UnitStats;
import dev.whyslow.protocol.Violation;
import dev.whyslow.protocol.ViolationBatch;
import dev.whyslow.protocol.ViolationCause;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;

/**
 * What happens when units end: each unit's duration goes into its type's histogram for the
 * interval, its run is labelled against the type's threshold (over: failure, within: success, no
 * threshold: do-not-care) and kept per {@code units.runs}, and violations are queued with their
 * stacks. The application thread only copies the unit's counts out ({@link FinishedUnit}); {@link
 * UnitWorker} turns them into runs and sends them with the histograms and violations.
 */
final class UnitRecorder extends UnitListener {
  /** The contract caps unit type names at this many characters. */
  static final int MAX_TYPE_NAME = 200;

  /** Most violations in one batch; a stack is up to 128 frames. */
  static final int VIOLATION_BATCH_MAX = 64;

  /** Most unit types one JVM keeps; later names all count as {@link #OVERFLOW_TYPE}. */
  static final int MAX_TYPES = 1024;

  /** Where units of names beyond {@link #MAX_TYPES} go, so memory stays bounded. */
  static final String OVERFLOW_TYPE = "(other unit types)";

  /** Violations waiting for the next flush; more are dropped and counted. */
  static final int VIOLATION_QUEUE_MAX = 1024;

  /**
   * Unit runs waiting for the worker to build them; beyond this many a unit's own thread builds its
   * run, so the queue stays bounded and nothing is dropped here.
   */
  static final int PENDING_RUNS_MAX = 4096;

  /** Unit runs waiting at which the worker is woken before its next tick. */
  static final int PENDING_RUNS_WAKE_AT = PENDING_RUNS_MAX / 4;

  private final UnitSettings settings;
  private final SiteRegistry sites;
  private final UnitOutput output;
  private final AtomicLong runSequence;
  private final AgentLog log;
  private final Map<String, UnitType> types = new ConcurrentHashMap<>();
  private final List<UnitType> byIndex = new CopyOnWriteArrayList<>();
  private final ConcurrentLinkedQueue<Violation> violations = new ConcurrentLinkedQueue<>();
  private final AtomicInteger queuedViolations = new AtomicInteger();
  private final ConcurrentLinkedQueue<FinishedUnit> pendingRuns = new ConcurrentLinkedQueue<>();
  private final AtomicInteger pendingRunCount = new AtomicInteger();
  private final Object flushing = new Object();
  private volatile Map<String, Long> thresholds = Map.of();
  private volatile long intervalStartMillis = System.currentTimeMillis();
  private volatile UnitTraining training;
  private volatile Runnable onThresholds = () -> {};
  private volatile Runnable onBacklog = () -> {};

  /**
   * Added to at every unit's end, by the application's threads: a sum of cells, not one counter.
   */
  final LongAdder unitsEnded = new LongAdder();

  final AtomicLong unitRunsSent = new AtomicLong(); // handed to the transport
  final AtomicLong violationsFound = new AtomicLong();
  final AtomicLong violationsDropped = new AtomicLong();

  UnitRecorder(
      UnitSettings settings,
      SiteRegistry sites,
      UnitOutput output,
      AtomicLong runSequence,
      AgentLog log) {
    this.settings = settings;
    this.sites = sites;
    this.output = output;
    this.runSequence = runSequence;
    this.log = log;
  }

  /** Receives traced units, and learns when thresholds change. */
  void attach(UnitTraining t) {
    training = t;
    onThresholds = t::thresholdsChanged;
  }

  /** What to call, on an application thread, when the units' runs waiting reach a backlog. */
  void onBacklog(Runnable wakeWorker) {
    onBacklog = wakeWorker;
  }

  @Override
  public UnitType typeOf(String name) {
    UnitType type = types.get(name);
    return type != null ? type : create(name);
  }

  private synchronized UnitType create(String name) {
    UnitType type = types.get(name);
    if (type == null && byIndex.size() >= MAX_TYPES && !name.equals(OVERFLOW_TYPE)) {
      log.warnOnce(
          "unit-types-overflow",
          "more than "
              + MAX_TYPES
              + " unit type names (the latest: "
              + name
              + "); later ones count as '"
              + OVERFLOW_TYPE
              + "'. Give Whyslow.unitBegin stable names (class and method), not per-request ones");
      return create(OVERFLOW_TYPE);
    }
    if (type == null) {
      String shown = name.length() > MAX_TYPE_NAME ? name.substring(0, MAX_TYPE_NAME) : name;
      type = new UnitType(shown, byIndex.size(), new UnitHistogramRecorder(shown));
      byIndex.add(type);
      types.put(name, type);
      publishThresholds(thresholds);
    }
    return type;
  }

  @Override
  public long nextRunSequence() {
    return runSequence.incrementAndGet();
  }

  @Override
  public void unitEnded(
      UnitState unit, UnitType type, long elapsedNanos, boolean violation, long runSequence) {
    unitsEnded.increment();
    ((UnitHistogramRecorder) type.data()).record(elapsedNanos, violation);
    UnitTraining t = training;
    if (t != null && unit.isTracing()) {
      t.traced(unit, type);
    }
    UnitRunCounts counts = unit.counts();
    if (!settings.allRuns() && counts.size() == 0 && !violation) {
      return;
    }
    long threshold = type.thresholdNanos();
    Label label =
        threshold == UnitType.NO_THRESHOLD && !violation
            ? Label.DO_NOT_CARE
            : violation || elapsedNanos > threshold ? Label.FAILURE : Label.SUCCESS;
    FinishedUnit finished =
        new FinishedUnit(
            runSequence != 0 ? runSequence : nextRunSequence(),
            unit.startEpochMillis(),
            Math.max(0, elapsedNanos),
            label,
            type.name(),
            Probes.samplingRate(),
            counts.toSlotCountPairs());
    int pending = pendingRunCount.incrementAndGet();
    if (pending > PENDING_RUNS_MAX) {
      // The worker is behind: this thread builds the run itself rather than let the queue grow.
      pendingRunCount.decrementAndGet();
      send(finished);
    } else {
      pendingRuns.add(finished);
      if (pending == PENDING_RUNS_WAKE_AT) {
        onBacklog.run();
      }
    }
  }

  /**
   * Builds and queues the runs of the units that ended since the last call; the worker's job, and
   * the shutdown's. One flush at a time, so that a flush at shutdown returns only once the worker's
   * own flush has queued the run it was building, ahead of the transport's last flush.
   */
  void flushRuns() {
    synchronized (flushing) {
      FinishedUnit finished;
      while ((finished = pendingRuns.poll()) != null) {
        pendingRunCount.decrementAndGet();
        send(finished);
      }
    }
  }

  private void send(FinishedUnit finished) {
    if (output.offerRun(finished.toRun(sites))) {
      unitRunsSent.incrementAndGet();
    }
  }

  @Override
  public void violation(
      UnitState unit,
      UnitType type,
      long elapsedNanos,
      long thresholdNanos,
      int cause,
      StackTraceElement[] stack,
      long runSequence) {
    violationsFound.incrementAndGet();
    if (queuedViolations.incrementAndGet() > VIOLATION_QUEUE_MAX) {
      queuedViolations.decrementAndGet();
      violationsDropped.incrementAndGet();
      return;
    }
    List<String> frames = new ArrayList<>(Math.min(stack.length, Violation.MAX_FRAMES));
    for (int i = 0; i < stack.length && i < Violation.MAX_FRAMES; i++) {
      frames.add(frame(stack[i]));
    }
    violations.add(
        new Violation(
            unit.startEpochMillis(),
            System.currentTimeMillis(),
            type.name(),
            Math.max(0, elapsedNanos),
            thresholdNanos,
            ViolationCause.fromCode(cause),
            unit.thread().getName(),
            frames,
            runSequence));
  }

  /** {@code class.method(File:line)}, as the protocol wants. */
  static String frame(StackTraceElement e) {
    String file = e.getFileName() == null ? "Unknown Source" : e.getFileName();
    return e.getClassName()
        + "."
        + e.getMethodName()
        + "("
        + (e.getLineNumber() >= 0 ? file + ":" + e.getLineNumber() : file)
        + ")";
  }

  /** Sends the violations found since the last call, in batches; one flush at a time. */
  void flushViolations() {
    synchronized (flushing) {
      List<Violation> batch = new ArrayList<>();
      Violation v;
      while ((v = violations.poll()) != null) {
        queuedViolations.decrementAndGet();
        batch.add(v);
        if (batch.size() == VIOLATION_BATCH_MAX) {
          send(batch);
          batch = new ArrayList<>();
        }
      }
      if (!batch.isEmpty()) {
        send(batch);
      }
    }
  }

  private void send(List<Violation> batch) {
    if (!output.offerMessage(new ViolationBatch(batch))) {
      violationsDropped.addAndGet(batch.size());
    }
  }

  /** The interval's histograms, types without units left out; {@code null} if none ended. */
  UnitStats drainStats(long nowMillis) {
    long start = intervalStartMillis;
    intervalStartMillis = nowMillis;
    List<UnitHistogram> histograms = new ArrayList<>();
    for (UnitType type : byIndex) {
      UnitHistogram h = ((UnitHistogramRecorder) type.data()).drain();
      if (h != null) {
        histograms.add(h);
      }
    }
    if (histograms.isEmpty()) {
      return null;
    }
    return new UnitStats(start, Math.max(1, nowMillis - start), histograms);
  }

  /** Replaces every threshold at once; logs at info what changed. */
  synchronized void setThresholds(List<Threshold> list) {
    Map<String, Long> next = new HashMap<>();
    for (Threshold t : list) {
      next.put(t.unitType(), t.thresholdNanos());
    }
    Map<String, Long> previous = thresholds;
    thresholds = Map.copyOf(next);
    publishThresholds(thresholds);
    onThresholds.run();
    if (!next.equals(previous)) {
      log.info("unit thresholds set by the daemon: " + describe(next));
    }
  }

  private synchronized void publishThresholds(Map<String, Long> byName) {
    long[] byIdx = new long[byIndex.size()];
    for (UnitType type : byIndex) {
      Long t = byName.get(type.name());
      byIdx[type.index()] = t == null ? UnitType.NO_THRESHOLD : t;
    }
    UnitType.setThresholds(byIdx);
  }

  private static String describe(Map<String, Long> byName) {
    if (byName.isEmpty()) {
      return "none";
    }
    StringBuilder s = new StringBuilder();
    byName.entrySet().stream()
        .sorted(Map.Entry.comparingByKey())
        .limit(20)
        .forEach(
            e ->
                s.append(s.length() == 0 ? "" : ", ")
                    .append(e.getKey())
                    .append(" ")
                    .append(e.getValue() / 1_000)
                    .append(" us"));
    if (byName.size() > 20) {
      s.append(", and ").append(byName.size() - 20).append(" more");
    }
    return s.toString();
  }

  /** The type named {@code name} if a unit of it started, else {@code null}; for tests. */
  UnitType knownType(String name) {
    return types.get(name);
  }
}
