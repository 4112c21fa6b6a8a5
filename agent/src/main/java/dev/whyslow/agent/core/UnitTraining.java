package dev.whyslow.agent.core;

import dev.whyslow.agent.bootstrap.AgentErrors;
import dev.whyslow.agent.bootstrap.UnitModel;
import dev.whyslow.agent.bootstrap.UnitState;
import dev.whyslow.agent.bootstrap.UnitType;
import dev.whyslow.agent.bootstrap.Units;
import dev.whyslow.agent.config.UnitSettings;
import dev.whyslow.agent.units.training.TrainedUnitTypes;
import dev.whyslow.agent.units.training.TrainingSettings;
import dev.whyslow.agent.units.training.UnitCallTrace;
import dev.whyslow.agent.units.training.UnitTypeTrainer;
import dev.whyslow.protocol.UnitTypeBatch;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Learns unit types from the calling contexts of a share of units. While training, traced units
 * hand their call traces (method entries with depths relative to the unit) to a bounded queue on
 * their own thread; once {@code units.training.units} are in, the agent's background thread trains
 * ({@link UnitTypeTrainer}), publishes the context table to the guards and sends the types. After
 * that, {@code units.audit.share} of units are traced to count how often the guards' inference
 * agrees with classifying the whole trace.
 */
final class UnitTraining {
  /** An audited unit: its trace and the type the guards gave it. */
  private record Audited(UnitCallTrace trace, String inferred) {}

  private final UnitSettings settings;
  private final MethodRegistry methods;
  private final UnitRecorder recorder;
  private final UnitOutput output;
  private final GuardEntries guardEntries;
  private final AgentLog log;
  private final BlockingQueue<UnitCallTrace> traces;
  private final BlockingQueue<Audited> audits = new ArrayBlockingQueue<>(1024);
  private final List<UnitCallTrace> collected = new ArrayList<>();
  private volatile TrainedUnitTypes trained;
  private volatile UnitModel model;
  private UnitTypeBatch unsentTypes; // background thread only

  final AtomicLong tracesDropped = new AtomicLong();
  final AtomicLong auditAgreed = new AtomicLong();
  final AtomicLong auditTotal = new AtomicLong();

  UnitTraining(
      UnitSettings settings,
      MethodRegistry methods,
      UnitRecorder recorder,
      UnitOutput output,
      GuardEntries guardEntries,
      AgentLog log) {
    this.settings = settings;
    this.methods = methods;
    this.recorder = recorder;
    this.output = output;
    this.guardEntries = guardEntries;
    this.log = log;
    this.traces = new ArrayBlockingQueue<>(Math.max(16, settings.trainingUnits()));
  }

  /** Starts tracing for training. */
  void start() {
    Units.setTraceShare(settings.trainingShare());
  }

  /** On the unit's thread, at its end, if it was traced: hands over a copy of its trace. */
  void traced(UnitState unit, UnitType type) {
    int n = unit.traceLength();
    UnitCallTrace trace =
        new UnitCallTrace(
            unit.entryPoint(),
            Arrays.copyOf(unit.traceIds(), n),
            Arrays.copyOf(unit.traceDepths(), n));
    boolean queued =
        trained == null ? traces.offer(trace) : audits.offer(new Audited(trace, type.name()));
    if (!queued) {
      tracesDropped.incrementAndGet();
    }
  }

  /** On the background thread: trains once enough traces are in, and checks audited units. */
  void tick() {
    try {
      if (unsentTypes != null && output.offerMessage(unsentTypes)) {
        unsentTypes = null; // the transport was not up yet at training
      }
      if (trained == null) {
        traces.drainTo(collected);
        if (collected.size() >= settings.trainingUnits()) {
          train();
        }
      } else {
        audit();
      }
    } catch (Throwable t) {
      AgentErrors.report("unit type training", t);
      Units.setTraceShare(0);
    }
  }

  private void train() {
    long start = System.nanoTime();
    TrainedUnitTypes result =
        UnitTypeTrainer.train(List.copyOf(collected), methods::nameOf, TrainingSettings.defaults());
    List<UnitCallTrace> traced = List.copyOf(collected);
    collected.clear();
    UnitType[] types = new UnitType[result.typeCount()];
    for (int i = 0; i < types.length; i++) {
      types[i] = recorder.typeOf(result.typeName(i));
    }
    UnitModel m = new UnitModel(result.contextTable(), types);
    model = m;
    trained = result;
    Units.publish(m);
    Units.setTraceShare(settings.auditShare());
    log.info(
        "trained "
            + types.length
            + " unit types from "
            + settings.trainingUnits()
            + " traced units in "
            + (System.nanoTime() - start) / 1_000_000
            + " ms, "
            + result.contextTable().guardCount()
            + " guard methods"
            + (result.notes().isEmpty() ? "" : " (" + String.join("; ", result.notes()) + ")"));
    guardEntries.afterTraining(m, traced);
    // Sent once the guards' entries are set up, so a daemon that has the types sees units typed
    // the way they will be from now on.
    UnitTypeBatch batch = new UnitTypeBatch(result.describe());
    if (!output.offerMessage(batch)) {
      unsentTypes = batch;
    }
  }

  private void audit() {
    TrainedUnitTypes t = trained;
    Audited a;
    while ((a = audits.poll()) != null) {
      int truth = t.classify(a.trace());
      auditTotal.incrementAndGet();
      if (truth >= 0 && t.typeName(truth).equals(a.inferred())) {
        auditAgreed.incrementAndGet();
      }
    }
  }

  /** After thresholds change: the guards' tie-break uses the new ones. */
  void thresholdsChanged() {
    UnitModel m = model;
    if (m != null) {
      m.refreshThresholds();
    }
  }

  boolean isTrained() {
    return trained != null;
  }

  /** "agreed/total (pct)" of the audit, for the log. */
  String auditSummary() {
    long total = auditTotal.get();
    long agreed = auditAgreed.get();
    return agreed
        + "/"
        + total
        + (total == 0 ? "" : String.format(" (%.1f %%)", 100.0 * agreed / total));
  }
}
