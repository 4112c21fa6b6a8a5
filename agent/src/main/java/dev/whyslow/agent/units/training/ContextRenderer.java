package dev.whyslow.agent.units.training;

import java.util.List;

/**
 * Shows a context as the call path that reaches it, {@code Router.handle > Search.query >
 * Index.scan}, taken from the first of the type's units (in name order) that has it.
 */
final class ContextRenderer {
  private final List<DistinctTrace> traces;
  private final int[] typeOf;
  private final MethodNames names;

  ContextRenderer(List<DistinctTrace> traces, int[] typeOf, MethodNames names) {
    this.traces = traces;
    this.typeOf = typeOf;
    this.names = names;
  }

  String render(int type, String entryPoint, long context) {
    int method = DistinctTrace.methodOf(context);
    int depth = DistinctTrace.depthOf(context);
    StringBuilder out = new StringBuilder(TypeNamer.simple(entryPoint));
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
          return cap(out);
        }
      }
    }
    // Deeper than the paths kept: the method and its depth.
    out.append(" > … > ").append(TypeNamer.simple(names.nameOf(method)));
    out.append(" (depth ").append(depth).append(')');
    return cap(out);
  }

  private static String cap(StringBuilder s) {
    return s.length() <= 1000 ? s.toString() : s.substring(0, 1000);
  }
}
