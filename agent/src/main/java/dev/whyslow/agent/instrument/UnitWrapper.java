package dev.whyslow.agent.instrument;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Set;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.tree.AbstractInsnNode;
import org.objectweb.asm.tree.AnnotationNode;
import org.objectweb.asm.tree.ClassNode;
import org.objectweb.asm.tree.FrameNode;
import org.objectweb.asm.tree.InsnList;
import org.objectweb.asm.tree.InsnNode;
import org.objectweb.asm.tree.LabelNode;
import org.objectweb.asm.tree.LdcInsnNode;
import org.objectweb.asm.tree.MethodInsnNode;
import org.objectweb.asm.tree.MethodNode;
import org.objectweb.asm.tree.TryCatchBlockNode;

/**
 * Marks where units of work begin and end, matching by method name and descriptor only (no class
 * hierarchy): the bodies of handler methods ({@code HttpHandler.handle}, Netty's {@code
 * channelRead}, servlet {@code service}), methods annotated {@code @WhyslowUnit} (any package) or
 * declared in {@code units.declare}, the task's {@code run()} in {@code
 * ThreadPoolExecutor.runWorker}, and in classes in scope the wait calls of event loops. Runs before
 * the probes are planned, on expanded frames.
 */
final class UnitWrapper {
  private static final String UNITS = MethodRewriter.UNITS;
  private static final String TPE = "java/util/concurrent/ThreadPoolExecutor";

  /** Entry-point bodies: name and descriptor. */
  private static final List<String[]> ENTRY_POINTS =
      List.of(
          new String[] {"handle", "(Lcom/sun/net/httpserver/HttpExchange;)V"},
          new String[] {
            "channelRead", "(Lio/netty/channel/ChannelHandlerContext;Ljava/lang/Object;)V"
          },
          new String[] {
            "service", "(Ljavax/servlet/ServletRequest;Ljavax/servlet/ServletResponse;)V"
          },
          new String[] {
            "service",
            "(Ljavax/servlet/http/HttpServletRequest;Ljavax/servlet/http/HttpServletResponse;)V"
          },
          new String[] {
            "service", "(Ljakarta/servlet/ServletRequest;Ljakarta/servlet/ServletResponse;)V"
          },
          new String[] {
            "service",
            "(Ljakarta/servlet/http/HttpServletRequest;Ljakarta/servlet/http/HttpServletResponse;)V"
          });

  /** A lambda implementing {@code HttpHandler} compiles to a synthetic method ending like this. */
  private static final String HTTP_LAMBDA_SUFFIX = "Lcom/sun/net/httpserver/HttpExchange;)V";

  /** Byte strings one of which a class with an entry point must contain. */
  private static final byte[][] MARKERS = {
    ascii("HttpExchange"),
    ascii("ChannelHandlerContext"),
    ascii("ServletRequest"),
    ascii("WhyslowUnit")
  };

  private final boolean enabled;
  private final Set<String> declared; // "com.acme.Worker#process"
  private final Set<String> declaredClasses; // "com/acme/Worker"

  /**
   * @param declared {@code Class#method} entries with dotted class names
   */
  UnitWrapper(boolean enabled, List<String> declared) {
    this.enabled = enabled;
    this.declared = Set.copyOf(declared);
    this.declaredClasses =
        Set.copyOf(
            declared.stream().map(d -> d.substring(0, d.indexOf('#')).replace('.', '/')).toList());
  }

  static UnitWrapper disabled() {
    return new UnitWrapper(false, List.of());
  }

  boolean enabled() {
    return enabled;
  }

  /**
   * Whether a class outside the scope may have something to wrap; cheap, on the raw bytes, so
   * classes that cannot match are never parsed.
   */
  boolean mightWrap(String internalName, byte[] classFile) {
    if (!enabled || internalName == null) {
      return false;
    }
    if (internalName.equals(TPE) || declaredClasses.contains(internalName)) {
      return true;
    }
    for (byte[] marker : MARKERS) {
      if (contains(classFile, marker)) {
        return true;
      }
    }
    return false;
  }

  /**
   * Wraps what it finds in {@code node}; returns how many places it wrapped.
   *
   * @param inScope whether wait loops are wrapped too (application code only)
   */
  int wrap(ClassNode node, boolean inScope) {
    if (!enabled || (node.access & (Opcodes.ACC_INTERFACE | Opcodes.ACC_MODULE)) != 0) {
      return 0;
    }
    String className = node.name.replace('/', '.');
    boolean jdk = node.name.startsWith("java/") || node.name.startsWith("jdk/");
    int wrapped = 0;
    for (MethodNode method : node.methods) {
      if ((method.access & (Opcodes.ACC_ABSTRACT | Opcodes.ACC_NATIVE)) != 0
          || method.name.startsWith("<")
          || method.instructions.size() == 0) {
        continue;
      }
      if (node.name.equals(TPE) && method.name.equals("runWorker")) {
        wrapped += wrapRunWorker(method) ? 1 : 0;
      } else if (isEntryPoint(className, method)) {
        wrapBody(method, className + "." + method.name);
        wrapped++;
      } else if (inScope && !jdk) {
        wrapped += WaitLoops.wrap(className, method) ? 1 : 0;
      }
    }
    return wrapped;
  }

  private boolean isEntryPoint(String className, MethodNode method) {
    for (String[] entry : ENTRY_POINTS) {
      if (entry[0].equals(method.name) && entry[1].equals(method.desc)) {
        return (method.access & Opcodes.ACC_BRIDGE) == 0;
      }
    }
    if (method.name.startsWith("lambda$") && method.desc.endsWith(HTTP_LAMBDA_SUFFIX)) {
      return true;
    }
    return annotated(method.visibleAnnotations)
        || annotated(method.invisibleAnnotations)
        || declared.contains(className + "#" + method.name);
  }

  private static boolean annotated(List<AnnotationNode> annotations) {
    if (annotations != null) {
      for (AnnotationNode a : annotations) {
        if (a.desc.equals("LWhyslowUnit;") || a.desc.endsWith("/WhyslowUnit;")) {
          return true;
        }
      }
    }
    return false;
  }

  /**
   * {@code Units.begin(name)} at entry, {@code Units.end()} before every return and in a catch-all
   * handler that rethrows. The handler is the last (outermost) in the table and its code follows
   * all other code, so nothing else catches its rethrow; its frame needs no locals.
   */
  static void wrapBody(MethodNode method, String unitName) {
    InsnList insns = method.instructions;
    LabelNode start = new LabelNode();
    LabelNode end = new LabelNode();
    LabelNode handler = new LabelNode();
    for (AbstractInsnNode insn : insns.toArray()) {
      int op = insn.getOpcode();
      if (op >= Opcodes.IRETURN && op <= Opcodes.RETURN) {
        insns.insertBefore(insn, call("end", "()V"));
      }
    }
    InsnList head = new InsnList();
    // stack: (empty, method entry)
    head.add(new LdcInsnNode(unitName));
    head.add(call("begin", "(Ljava/lang/String;)V"));
    head.add(start);
    insns.insert(head);
    insns.add(end);
    insns.add(handler);
    insns.add(
        new FrameNode(Opcodes.F_NEW, 0, new Object[0], 1, new Object[] {"java/lang/Throwable"}));
    // stack: throwable
    insns.add(call("end", "()V"));
    insns.add(new InsnNode(Opcodes.ATHROW));
    method.tryCatchBlocks.add(new TryCatchBlockNode(start, end, handler, null));
    method.maxStack = Math.max(method.maxStack, 1);
  }

  /**
   * {@code Units.beginTask(task)} just before {@code task.run()}, {@code Units.end()} before both
   * calls of {@code afterExecute}, which runWorker makes on the normal and the exceptional path.
   * The wait for the next task ({@code getTask}) stays outside. Left alone if the shape differs.
   */
  private static boolean wrapRunWorker(MethodNode method) {
    MethodInsnNode run = null;
    int afterExecute = 0;
    for (AbstractInsnNode insn : method.instructions) {
      if (insn instanceof MethodInsnNode m) {
        if (m.name.equals("run") && m.desc.equals("()V") && m.owner.equals("java/lang/Runnable")) {
          if (run != null) {
            return false;
          }
          run = m;
        } else if (m.name.equals("afterExecute") && m.owner.equals(TPE)) {
          afterExecute++;
        }
      }
    }
    if (run == null || afterExecute == 0) {
      return false;
    }
    InsnList before = new InsnList();
    // stack: ..., task
    before.add(new InsnNode(Opcodes.DUP));
    before.add(call("beginTask", "(Ljava/lang/Object;)V"));
    // stack: ..., task
    method.instructions.insertBefore(run, before);
    for (AbstractInsnNode insn : method.instructions.toArray()) {
      if (insn instanceof MethodInsnNode m
          && m.name.equals("afterExecute")
          && m.owner.equals(TPE)) {
        // stack: ..., this, task, thrown   (the call's arguments; ours takes none)
        method.instructions.insertBefore(m, call("end", "()V"));
      }
    }
    method.maxStack += 1;
    return true;
  }

  static MethodInsnNode call(String name, String descriptor) {
    return new MethodInsnNode(Opcodes.INVOKESTATIC, UNITS, name, descriptor, false);
  }

  static boolean contains(byte[] haystack, byte[] needle) {
    byte first = needle[0];
    int last = haystack.length - needle.length;
    outer:
    for (int i = 0; i <= last; i++) {
      if (haystack[i] != first) {
        continue;
      }
      for (int j = 1; j < needle.length; j++) {
        if (haystack[i + j] != needle[j]) {
          continue outer;
        }
      }
      return true;
    }
    return false;
  }

  private static byte[] ascii(String s) {
    return s.getBytes(StandardCharsets.US_ASCII);
  }
}
