package dev.whyslow.agent.units.training;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Names unit types. The only type of an entry point keeps the entry point's name ({@code
 * com.acme.Worker.process}), the name its units had before training, so its threshold and history
 * carry over. Several types of one entry point are named {@code Entry.simple/Method.simple} after
 * the context that tells each apart, e.g. {@code Router.handle/Catalog.search}; two that would
 * share a name get the context's depth ({@code @3}) when that differs, else {@code #2}, {@code #3}
 * in type order. Names are at most 200 characters.
 */
final class TypeNamer {
  static final int MAX_NAME = 200;

  private TypeNamer() {}

  /**
   * @param entryOfType entry point of each type, in type order
   * @param signatureByType the context that tells each type apart, or -1
   */
  static List<String> names(String[] entryOfType, long[] signatureByType, MethodNames names) {
    int n = entryOfType.length;
    Map<String, Integer> typesPerEntry = new HashMap<>();
    for (String e : entryOfType) {
      typesPerEntry.merge(e, 1, Integer::sum);
    }
    String[] base = new String[n];
    for (int t = 0; t < n; t++) {
      if (typesPerEntry.get(entryOfType[t]) == 1) {
        base[t] = entryOfType[t];
      } else {
        String method =
            signatureByType[t] < 0
                ? "other"
                : simple(names.nameOf(DistinctTrace.methodOf(signatureByType[t])));
        base[t] = simple(entryOfType[t]) + "/" + method;
      }
    }
    Map<String, List<Integer>> byBase = new HashMap<>();
    for (int t = 0; t < n; t++) {
      byBase.computeIfAbsent(base[t], k -> new ArrayList<>()).add(t);
    }
    String[] name = base.clone();
    for (List<Integer> same : byBase.values()) {
      if (same.size() < 2) {
        continue;
      }
      Set<Integer> depths = new HashSet<>();
      for (int t : same) {
        depths.add(signatureByType[t] < 0 ? -1 : DistinctTrace.depthOf(signatureByType[t]));
      }
      if (depths.size() == same.size() && !depths.contains(-1)) {
        for (int t : same) {
          name[t] = base[t] + "@" + DistinctTrace.depthOf(signatureByType[t]);
        }
      }
    }
    Map<String, Integer> seen = new HashMap<>();
    List<String> out = new ArrayList<>(n);
    for (int t = 0; t < n; t++) {
      int k = seen.merge(name[t], 1, Integer::sum);
      String suffix = k == 1 ? "" : "#" + k;
      String stem = name[t];
      if (stem.length() + suffix.length() > MAX_NAME) {
        stem = stem.substring(0, MAX_NAME - suffix.length());
      }
      out.add(stem + suffix);
    }
    return out;
  }

  /** {@code com.acme.Catalog.search} → {@code Catalog.search}. */
  static String simple(String method) {
    int last = method.lastIndexOf('.');
    if (last <= 0) {
      return method;
    }
    int previous = method.lastIndexOf('.', last - 1);
    return method.substring(previous + 1);
  }
}
