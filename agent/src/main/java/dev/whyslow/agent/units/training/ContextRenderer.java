package dev.whyslow.agent.units.training;

import java.util.List;
import java.util.Map;

/**
 * Shows a context as the call path that reaches it, {@code Router.handle > Search.query >
 * Index.scan}, taken from the first of the type's units (in name order) that has it.
 */
final class ContextRenderer {
  private final List<DistinctTrace> traces;
  private final int[] typeOf;
  private final MethodNames names;
  private final Map<String, Integer> trunks;

  ContextRenderer(
      List<DistinctTrace> traces, int[] typeOf, MethodNames names, Map<String, Integer> trunks) {
    this.trunks = trunks;
    this.traces = traces;
    this.typeOf = typeOf;
    this.names = names;
  }

  String render(int type, String entryPoint, long context) {
    int method = DistinctTrace.methodOf(context);
    int depth = DistinctTrace.depthOf(context);
    StringBuilder out = new StringBuilder(TypeNamer.simple(entryPoint));
    // Paths start below the entry point's common trunk, which is shown as "…".
    int trunk = trunks.getOrDefault(entryPoint, 0);
    if (depth > trunk) {
      if (trunk > 0) {
        out.append(" > …");
      }
      String path = pathTo(type, context, method, depth - trunk);
      if (path != null) {
        return cap(out.append(path));
      }
    }
    out.append(" > … > ").append(TypeNamer.simple(names.nameOf(method)));
    out.append(" (depth ").append(depth).append(')');
    return cap(out);
  }

  /** " > A.a > B.b" down to the context, from the first of the type's units that has it. */
  private String pathTo(int type, long context, int method, int depth) {
    StringBuilder out = new StringBuilder();
    for (int i = 0; i < traces.size(); i++) {
      if (typeOf[i] != type || !traces.get(i).hasContext(context)) {
        continue;
      }
      PathSet paths = traces.get(i).paths;
      for (int p = 0; p < paths.size(); p++) {
        CallPath path = paths.path(p);
        if (path.length() >= depth && path.method(depth - 1) == method) {
          for (int k = 0; k < depth; k++) {
            out.append(" > ").append(TypeNamer.simple(names.nameOf(path.method(k))));
          }
          return out.toString();
        }
      }
    }
    return null; // deeper than the paths kept
  }

  private static String cap(StringBuilder s) {
    return s.length() <= 1000 ? s.toString() : s.substring(0, 1000);
  }
}
