package dev.whyslow.agent.core;

import dev.whyslow.agent.bootstrap.AgentErrors;
import dev.whyslow.agent.bootstrap.ContextTable;
import dev.whyslow.agent.bootstrap.UnitModel;
import dev.whyslow.agent.bootstrap.Units;
import dev.whyslow.agent.instrument.GuardMethods;
import dev.whyslow.agent.instrument.UnitChoice;
import dev.whyslow.agent.units.training.UnitCallTrace;
import java.lang.instrument.Instrumentation;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Predicate;

/**
 * After training, with {@code units.depth=auto} (the default): when every guard names the same unit
 * types at each depth it was seen at, the depth tells the guards nothing, and counting it in every
 * frame of every unit is pure cost (in-process, two fifths of what the agent adds to the example
 * shop's requests; as a service 1 to 2 points of its request threads' CPU once retransformations
 * stopped making new lambda classes, bench/LATENCY.md). Then the guard methods' classes are
 * retransformed once so that their entry asks {@code Entries.guardEntry()}, and units started from
 * then on count depth only in the guards' frames; the rest of their code runs as it does outside
 * units. If the retransformation fails, every frame goes on counting, as with {@code
 * units.depth=all}.
 *
 * <p>The classes of every method the training traces saw are retransformed too, guards or not:
 * until now their entry's choice inside units was always the depth-only copy, and the JIT's profile
 * of it would keep that path compiled beside the own code for good. Retransformed, their methods
 * start with fresh profiles, learned from the units as they run from now on.
 */
final class GuardEntries {
  private final boolean depthInEveryFrame;
  private final boolean copies;
  private final MethodRegistry methods;
  private final GuardMethods guards;
  private final Instrumentation instrumentation;
  private final AgentLog log;

  /** Why the guards still count depth in every frame, once decided; {@code ""} while not. */
  private volatile String everyFrameBecause = "";

  private volatile boolean bySite;

  /** With {@code units.choice=unit}: the form to turn on, and which classes get it. */
  private UnitChoice unitChoice;

  private Predicate<String> inScope = name -> false;

  /**
   * @param copies whether instrumented methods have copies (sampled invocations): without them
   *     every depth-counted method counts in its own code, and there is nothing to save
   * @param instrumentation {@code null} in tests that retransform nothing
   */
  GuardEntries(
      boolean depthInEveryFrame,
      boolean copies,
      MethodRegistry methods,
      GuardMethods guards,
      Instrumentation instrumentation,
      AgentLog log) {
    this.depthInEveryFrame = depthInEveryFrame;
    this.copies = copies;
    this.methods = methods;
    this.guards = guards;
    this.instrumentation = instrumentation;
    this.log = log;
  }

  /**
   * Makes training, when the guards infer by site, also turn units chosen whole on ({@code
   * units.choice=unit}): {@code choice} is the instrumenter's, and every loaded class {@code
   * inScope} is retransformed into that form with the guards' classes.
   */
  void chooseWholeUnits(UnitChoice choice, Predicate<String> inScope) {
    this.unitChoice = choice;
    this.inScope = inScope;
  }

  /**
   * Called once {@code m} is published to the guards, on the agent's background thread, with the
   * traces it was trained on.
   */
  void afterTraining(UnitModel m, List<UnitCallTrace> traces) {
    ContextTable table = m.table();
    if (depthInEveryFrame || !copies || instrumentation == null) {
      everyFrameBecause =
          depthInEveryFrame
              ? "units.depth=all counts depth in every frame"
              : "classes have no copies at this sampling rate";
      return;
    }
    if (!table.depthTellsNothing()) {
      everyFrameBecause = "the guards tell some unit types apart by depth";
      log.info("the guards tell some unit types apart by depth: every frame of a unit counts it");
      return;
    }
    int[] ids = new int[table.guardCount()];
    Set<String> classNames = new HashSet<>();
    for (int g = 0; g < ids.length; g++) {
      ids[g] = table.methodIdOf(g);
      if (ids[g] < 0) {
        everyFrameBecause = "the guards are not the trainer's";
        return; // not a table the trainer built; keep counting every frame
      }
      addOwner(ids[g], classNames);
    }
    for (UnitCallTrace trace : traces) {
      for (int id : trace.methodIds()) {
        addOwner(id, classNames);
      }
    }
    guards.set(ids); // classes loaded from now on get the guard's entry as they load
    boolean whole = unitChoice != null;
    if (whole) {
      unitChoice.set(rootsOf(traces));
    }
    List<Class<?>> loaded = new ArrayList<>();
    for (Class<?> c : instrumentation.getAllLoadedClasses()) {
      boolean wanted =
          classNames.contains(c.getName())
              || (whole && !c.isArray() && !c.isPrimitive() && inScope.test(c.getName()));
      if (wanted && instrumentation.isModifiableClass(c)) {
        loaded.add(c);
      }
    }
    long start = System.nanoTime();
    try {
      if (!loaded.isEmpty()) {
        instrumentation.retransformClasses(loaded.toArray(new Class<?>[0]));
      }
    } catch (Throwable t) {
      everyFrameBecause = "the guards' classes could not be retransformed";
      guards.set(new int[0]);
      if (whole) {
        unitChoice.clear();
      }
      AgentErrors.report("giving the guards their entries", t);
      log.warn(
          "could not retransform the guards' classes "
              + classNames
              + " ("
              + t
              + "); every frame of a unit goes on counting its depth");
      return;
    }
    Units.countDepthOnlyWhereNeeded(m);
    bySite = true;
    if (whole) {
      // The classes run the code javac wrote now: loops' units find their end without the depth.
      Units.setCodeDormant(true);
      Units.chooseUnits(true);
      log.info(
          "units are chosen whole from now on (units.choice=unit): "
              + loaded.size()
              + " classes retransformed in "
              + (System.nanoTime() - start) / 1_000_000
              + " ms");
      return;
    }
    log.info(
        "each guard names the same unit types at every depth: units count depth only in the "
            + ids.length
            + " guard methods ("
            + loaded.size()
            + " classes of the guards and of the traced methods retransformed in "
            + (System.nanoTime() - start) / 1_000_000
            + " ms)");
  }

  /** The first frames of the traced units: the methods their entry methods called. */
  private static int[] rootsOf(List<UnitCallTrace> traces) {
    Set<Integer> roots = new HashSet<>();
    for (UnitCallTrace trace : traces) {
      for (int i = 0; i < trace.size(); i++) {
        if (trace.relativeDepths()[i] == 1) {
          roots.add(trace.methodIds()[i]);
        }
      }
    }
    int[] ids = new int[roots.size()];
    int i = 0;
    for (int id : roots) {
      ids[i++] = id;
    }
    return ids;
  }

  /** Whether units count depth only in the guards' frames: the guards infer by site. */
  boolean bySite() {
    return bySite;
  }

  /**
   * Why every frame of a unit goes on counting its depth, once training decided it; {@code ""}
   * before, or when only the guards count it.
   */
  String everyFrameBecause() {
    return everyFrameBecause;
  }

  private void addOwner(int methodId, Set<String> classNames) {
    String owner = methods.classOf(methodId);
    if (owner != null) {
      classNames.add(owner);
    }
  }
}
