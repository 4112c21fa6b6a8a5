package dev.whyslow.agent.core;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Dense ids of the depth-counted methods, as {@code class.method}: the id a method passes at entry
 * names it in call traces and in the context table. A method loaded twice (another class loader, a
 * retransformation) keeps its id.
 */
public final class MethodRegistry {
  private final Map<String, Integer> byKey = new HashMap<>();
  private final List<String> names = new ArrayList<>();
  private final List<String> classNames = new ArrayList<>();

  /** The id of {@code className.methodName} with descriptor {@code descriptor}. */
  public synchronized int idOf(String className, String methodName, String descriptor) {
    // Joined, not concatenated: javac's StringBuilder chain would grow its builder by the '.', and
    // on JDK 25 a builder grown by append(char) while the service's code is profiled leaves that
    // branch of the JDK's append(char) compiled in line into every method of the service that
    // appends chars (bench/README.md, "The agent's own append(char)").
    String name = String.join(".", className, methodName);
    String key = name.concat(descriptor);
    Integer id = byKey.get(key);
    if (id == null) {
      id = names.size();
      names.add(name);
      classNames.add(className);
      byKey.put(key, id);
    }
    return id;
  }

  /** {@code class.method} of {@code id}, or {@code "?"} for an unknown id. */
  public synchronized String nameOf(int id) {
    return id >= 0 && id < names.size() ? names.get(id) : "?";
  }

  /** The class of {@code id}'s method, as given to {@link #idOf}, or {@code null} if unknown. */
  public synchronized String classOf(int id) {
    return id >= 0 && id < classNames.size() ? classNames.get(id) : null;
  }

  public synchronized int size() {
    return names.size();
  }
}
