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
    String key = className + '.' + methodName + descriptor;
    Integer id = byKey.get(key);
    if (id == null) {
      id = names.size();
      names.add(className + '.' + methodName);
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
