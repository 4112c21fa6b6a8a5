package dev.whyslow.protocol;

import java.util.List;
import java.util.Objects;

/**
 * What the agent's training learned about one unit type, so people can see what a type name stands
 * for.
 *
 * @param name the type's name, as used in runs, histograms, violations and thresholds
 * @param entryPoint where its units start, e.g. {@code com.acme.Router.handle}
 * @param contexts the calling contexts that tell it apart from the other types, as {@code a > b >
 *     c}
 * @param guardMethods the methods whose guards can name it, as {@code class.method}
 */
public record UnitTypeInfo(
    String name, String entryPoint, List<String> contexts, List<String> guardMethods) {
  public UnitTypeInfo {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(entryPoint, "entryPoint");
    contexts = List.copyOf(contexts);
    guardMethods = List.copyOf(guardMethods);
  }
}
