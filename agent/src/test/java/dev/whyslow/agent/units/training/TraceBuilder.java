package dev.whyslow.agent.units.training;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** Builds call traces by name for tests: {@code enter("A.a").enter("B.b").exit().exit()}. */
final class TraceBuilder {
  /** Method ids by name, shared by every trace built with the same {@link Names}. */
  static final class Names implements MethodNames {
    private final Map<String, Integer> ids = new HashMap<>();
    private final List<String> byId = new ArrayList<>();
    private final int offset;

    Names() {
      this(0);
    }

    /** Ids start at {@code offset}, so tests can check nothing depends on the ids. */
    Names(int offset) {
      this.offset = offset;
    }

    int id(String name) {
      return ids.computeIfAbsent(
          name,
          n -> {
            byId.add(n);
            return offset + byId.size() - 1;
          });
    }

    @Override
    public String nameOf(int methodId) {
      return byId.get(methodId - offset);
    }
  }

  private final Names names;
  private final String entryPoint;
  private final List<Integer> methods = new ArrayList<>();
  private final List<Integer> depths = new ArrayList<>();
  private int depth;

  TraceBuilder(Names names, String entryPoint) {
    this.names = names;
    this.entryPoint = entryPoint;
  }

  TraceBuilder enter(String method) {
    depth++;
    methods.add(names.id(method));
    depths.add(depth);
    return this;
  }

  TraceBuilder exit() {
    depth--;
    return this;
  }

  /** A call with no callees. */
  TraceBuilder leaf(String method) {
    return enter(method).exit();
  }

  UnitCallTrace build() {
    int[] m = new int[methods.size()];
    int[] d = new int[depths.size()];
    for (int i = 0; i < m.length; i++) {
      m[i] = methods.get(i);
      d[i] = depths.get(i);
    }
    return new UnitCallTrace(entryPoint, m, d);
  }
}
