package dev.whyslow.agent.units.training;

import java.util.Comparator;

/**
 * Turns the agent's method ids into names such as {@code com.acme.Catalog.search}. Training orders
 * and names everything by these names, never by ids, so type names stay the same across restarts
 * even when ids are handed out in another order.
 */
@FunctionalInterface
public interface MethodNames {
  /** The method's {@code package.Class.method} name; must be the same for the same id. */
  String nameOf(int methodId);

  /**
   * Method ids by name, then by id where names are equal. Written out rather than built with {@code
   * Comparator.comparing}, whose shared key call the agent would otherwise add classes to (see
   * {@code UnitTypeTrainer}).
   */
  static Comparator<Integer> byName(MethodNames names) {
    return (a, b) -> {
      int c = names.nameOf(a).compareTo(names.nameOf(b));
      return c != 0 ? c : Integer.compare(a, b);
    };
  }
}
