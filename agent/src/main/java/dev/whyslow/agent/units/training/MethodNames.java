package dev.whyslow.agent.units.training;

/**
 * Turns the agent's method ids into names such as {@code com.acme.Catalog.search}. Training orders
 * and names everything by these names, never by ids, so type names stay the same across restarts
 * even when ids are handed out in another order.
 */
@FunctionalInterface
public interface MethodNames {
  /** The method's {@code package.Class.method} name; must be the same for the same id. */
  String nameOf(int methodId);
}
