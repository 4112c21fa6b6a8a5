package dev.whyslow.agent.bootstrap;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * Counts exceptions caught inside the agent and prints the first one to stderr, so an agent bug is
 * visible once and never reaches the application. Lives in bootstrap because the probes' sampled
 * path reports here too.
 */
public final class AgentErrors {
  private static final VarHandle COUNT;
  private static final VarHandle REPORTED;

  static {
    try {
      MethodHandles.Lookup lookup = MethodHandles.lookup();
      COUNT = lookup.findStaticVarHandle(AgentErrors.class, "count", long.class);
      REPORTED = lookup.findStaticVarHandle(AgentErrors.class, "reported", boolean.class);
    } catch (ReflectiveOperationException e) {
      throw new ExceptionInInitializerError(e);
    }
  }

  @SuppressWarnings("unused") // accessed through COUNT
  private static volatile long count;

  @SuppressWarnings("unused") // accessed through REPORTED
  private static volatile boolean reported;

  private AgentErrors() {}

  /** Counts {@code error}; the first one of the JVM is printed with where it happened. */
  public static void report(String where, Throwable error) {
    try {
      COUNT.getAndAdd(1L);
      if (REPORTED.compareAndSet(false, true)) {
        StringBuilder line = new StringBuilder(160);
        line.append("[whyslow] internal error in ")
            .append(where)
            .append(
                " (reported once; the agent skips the failed step and the application goes on): ")
            .append(error);
        System.err.println(line);
      }
    } catch (Throwable ignored) {
      // Reporting must never fail, not even on a nearly exhausted stack.
    }
  }

  /** Exceptions caught inside the agent since it started. */
  public static long count() {
    return (long) COUNT.getVolatile();
  }
}
