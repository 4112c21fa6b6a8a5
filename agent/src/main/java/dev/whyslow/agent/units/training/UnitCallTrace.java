package dev.whyslow.agent.units.training;

import java.util.Arrays;
import java.util.Objects;

/**
 * The call tree of one traced unit, as the agent records it during training: method entries in
 * pre-order with their depth relative to the unit's entry frame (1 = called by the entry method
 * itself). A depth more than one below its predecessor's is read as a child of the predecessor.
 *
 * @param entryPoint where the unit starts, as {@code com.acme.Router.handle}
 * @param methodIds the agent's method ids, in the order the methods were entered
 * @param relativeDepths the depth of each entry, same length as {@code methodIds}, each at least 1
 */
public record UnitCallTrace(String entryPoint, int[] methodIds, int[] relativeDepths) {
  public UnitCallTrace {
    Objects.requireNonNull(entryPoint, "entryPoint");
    Objects.requireNonNull(methodIds, "methodIds");
    Objects.requireNonNull(relativeDepths, "relativeDepths");
    if (methodIds.length != relativeDepths.length) {
      throw new IllegalArgumentException(
          "a trace needs one depth per method entry, got "
              + methodIds.length
              + " methods and "
              + relativeDepths.length
              + " depths for "
              + entryPoint);
    }
  }

  /** Method entries recorded. */
  public int size() {
    return methodIds.length;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof UnitCallTrace t
        && entryPoint.equals(t.entryPoint)
        && Arrays.equals(methodIds, t.methodIds)
        && Arrays.equals(relativeDepths, t.relativeDepths);
  }

  @Override
  public int hashCode() {
    return (entryPoint.hashCode() * 31 + Arrays.hashCode(methodIds)) * 31
        + Arrays.hashCode(relativeDepths);
  }

  @Override
  public String toString() {
    return "UnitCallTrace[" + entryPoint + ", " + methodIds.length + " calls]";
  }
}
