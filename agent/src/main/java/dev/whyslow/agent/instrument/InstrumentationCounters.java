package dev.whyslow.agent.instrument;

import java.util.concurrent.atomic.AtomicLong;

/** What the instrumentation did since the agent started, for agent statistics and the exit line. */
public final class InstrumentationCounters {
  final AtomicLong classesInstrumented = new AtomicLong();
  final AtomicLong classesFailed = new AtomicLong();
  final AtomicLong classesOverBudget = new AtomicLong();
  final AtomicLong methodsSkipped = new AtomicLong();
  final AtomicLong nestedLoadsSkipped = new AtomicLong();
  final AtomicLong transformNanos = new AtomicLong();
  final AtomicLong unitsWrapped = new AtomicLong();
  final AtomicLong methodsWithFastPath = new AtomicLong();
  final AtomicLong classesReinstrumented = new AtomicLong();

  /** Retransformations of classes already instrumented (the guards' entries). */
  public long classesReinstrumented() {
    return classesReinstrumented.get();
  }

  /** Methods given CBI's fast path (a check per region, {@link FastPathPlan}). */
  public long methodsWithFastPath() {
    return methodsWithFastPath.get();
  }

  /** Unit entry points, executor task calls and wait loops wrapped. */
  public long unitsWrapped() {
    return unitsWrapped.get();
  }

  /** Classes the agent changed. */
  public long classesInstrumented() {
    return classesInstrumented.get();
  }

  /** Classes in scope the agent tried to change and left as they were after an error. */
  public long classesFailed() {
    return classesFailed.get();
  }

  /** Classes in scope left alone because the predicate budget ({@code max.predicates}) was used. */
  public long classesOverBudget() {
    return classesOverBudget.get();
  }

  /** Methods in instrumented classes left alone (subroutines, too large once instrumented, …). */
  public long methodsSkipped() {
    return methodsSkipped.get();
  }

  /** Classes loaded by the agent's own transformation code, left uninstrumented. */
  public long nestedLoadsSkipped() {
    return nestedLoadsSkipped.get();
  }

  /** Time spent transforming classes in scope, in total. */
  public long transformNanos() {
    return transformNanos.get();
  }
}
