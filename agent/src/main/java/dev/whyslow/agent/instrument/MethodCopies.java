package dev.whyslow.agent.instrument;

import java.util.ArrayList;
import java.util.List;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.Type;
import org.objectweb.asm.tree.AbstractInsnNode;
import org.objectweb.asm.tree.AnnotationNode;
import org.objectweb.asm.tree.ClassNode;
import org.objectweb.asm.tree.FrameNode;
import org.objectweb.asm.tree.InsnList;
import org.objectweb.asm.tree.InsnNode;
import org.objectweb.asm.tree.JumpInsnNode;
import org.objectweb.asm.tree.LabelNode;
import org.objectweb.asm.tree.LineNumberNode;
import org.objectweb.asm.tree.MethodInsnNode;
import org.objectweb.asm.tree.MethodNode;
import org.objectweb.asm.tree.VarInsnNode;

/**
 * Sampled invocations in the bytecode: an instrumented method keeps its own code and gets its
 * probes in a private copy. At entry it asks {@code Entries.entry()} which code this invocation
 * runs: most run their own code, untouched, so the JIT sees the method as javac wrote it plus a
 * per-thread countdown of invocations; one in {@code 1 / share} runs the copy with probes and the
 * depth count, where evaluations are sampled at the rate over the share; inside a unit the others
 * run a copy with the depth count only, so that guards still see every frame of the unit.
 *
 * <p>Which invocations are sampled is decided by a per-thread countdown of invocations, which
 * depends neither on their code nor on how long they take, so every evaluation is still recorded
 * with probability share times rate over share: the rate. (Deciding by time instead, in windows
 * opened by a timer, was tried: instrumented code runs slower than its own, so slow copies got
 * fewer invocations per window and their sites were recorded less often than the rate, by up to 20
 * times while the copies were not compiled yet.) A call from a copy goes to the callee's own entry,
 * which decides again. Copies are named after their method, so a stack trace taken in a sampled
 * invocation or a unit shows {@code sort$whyslow} below {@code sort}; a method too long to inline
 * keeps its copies inside its own body instead ({@link #merge}).
 *
 * <p>Constructors and class initialisers keep their probes inline (a constructor's code cannot move
 * to another method), and so do interfaces, caller-sensitive methods and classes being
 * retransformed, which may not gain methods: their samples are kept with probability share ({@code
 * Probes.CHECK_SHARE}).
 */
final class MethodCopies {
  /** The suffix of the copy with probes; the depth-only copy adds {@link #DEPTH_SUFFIX}. */
  static final String SUFFIX = "$whyslow";

  static final String DEPTH_SUFFIX = "$depth";

  /** The suffix of the method that chooses between the two copies (by the entry's choice). */
  static final String MODE_SUFFIX = "$mode";

  /**
   * The suffix of a plain copy of the own code, which a method that recurses alone calls instead of
   * itself ({@link SelfCalls}).
   */
  static final String OWN_SUFFIX = "$own";

  private static final int KEPT_ACCESS = Opcodes.ACC_STATIC | Opcodes.ACC_STRICT;

  private MethodCopies() {}

  /**
   * Whether {@code method} of {@code owner} can keep its own code and dispatch to copies. Not when
   * its caller matters: a caller-sensitive JDK method (the JVM checks the annotation on the frame
   * that asks, which a copy would not have) or a method asking for its caller's class itself (it
   * would get its own class, the dispatching frame's).
   */
  static boolean dispatchable(ClassNode owner, MethodNode method) {
    return (owner.access & Opcodes.ACC_INTERFACE) == 0
        && !method.name.startsWith("<")
        && !method.name.endsWith(SUFFIX)
        && !method.name.endsWith(DEPTH_SUFFIX)
        && !method.name.endsWith(MODE_SUFFIX)
        && !method.name.endsWith(OWN_SUFFIX)
        && !callerSensitive(method.visibleAnnotations)
        && !callerSensitive(method.invisibleAnnotations)
        && !asksForItsCaller(method);
  }

  private static boolean callerSensitive(List<AnnotationNode> annotations) {
    if (annotations != null) {
      for (AnnotationNode a : annotations) {
        if (a.desc.contains("CallerSensitive")) {
          return true;
        }
      }
    }
    return false;
  }

  private static boolean asksForItsCaller(MethodNode method) {
    for (AbstractInsnNode insn : method.instructions) {
      if (insn instanceof MethodInsnNode call && call.name.equals("getCallerClass")) {
        return true;
      }
    }
    return false;
  }

  /** The method's name as the original, for a copy's name (as in a too-large exception). */
  static String originalName(String name) {
    String n = name;
    for (String suffix : new String[] {DEPTH_SUFFIX, MODE_SUFFIX, OWN_SUFFIX}) {
      if (n.endsWith(suffix)) {
        n = n.substring(0, n.length() - suffix.length());
      }
    }
    return n.endsWith(SUFFIX) ? n.substring(0, n.length() - SUFFIX.length()) : n;
  }

  /**
   * A copy of {@code method}'s code, labels of its own, under the same name and descriptor (so its
   * sites and method id are the original's) until {@link #rename} is called.
   */
  static MethodNode copyOf(MethodNode method) {
    MethodNode copy =
        new MethodNode(
            Opcodes.ASM9,
            method.access,
            method.name,
            method.desc,
            null,
            method.exceptions.toArray(new String[0]));
    CodeCopy code = CodeCopy.cloneOf(method); // the fast path's clone: labels of its own
    copy.instructions = code.list;
    if (method.localVariables != null) {
      copy.localVariables = new ArrayList<>();
    }
    code.appendTablesTo(copy);
    copy.maxStack = method.maxStack;
    copy.maxLocals = method.maxLocals;
    return copy;
  }

  /**
   * Makes {@code copy} a private synthetic method named {@code name}, ready to add to the class.
   */
  static void rename(MethodNode copy, String name) {
    copy.name = name;
    copy.access = (copy.access & KEPT_ACCESS) | Opcodes.ACC_PRIVATE | Opcodes.ACC_SYNTHETIC;
  }

  /**
   * Puts the dispatch in front of {@code method}'s own code: unless {@code Entries.open()} says the
   * entries are closed, {@code Entries.entry()} says which code this invocation runs; {@code
   * withProbes}, or {@code depthOnly} inside a unit (both {@code withProbes} when {@code depthOnly}
   * is {@code null}). With a depth-only copy the choice between the two is made in a third, tiny
   * method, so that the method's own code grows by as few bytes as possible: the JIT decides what
   * to inline by bytecode size, and a method grown past its limits would cost in every invocation.
   *
   * <p>A method that does not count depth ({@link DepthCounting}) asks {@code
   * Entries.sampledEntry()} instead, which never chooses a copy for being in a unit. A short method
   * ({@link DepthCounting#isShort}) asks {@code Entries.followingEntry()}, or {@code
   * followingCountedEntry()} if it counts depth, which run the copy with probes when the thread's
   * last choice did, and draw nothing.
   *
   * @param entry the {@code Entries} method that chooses, one of {@code entry}, {@code guardEntry},
   *     {@code sampledEntry} and their {@code following} forms for short methods
   * @param closable whether the dispatch first tests {@code Entries.open()} (sampling windows) and
   *     runs the own code when the entries are closed; never for a guard method, whose entry tests
   *     that itself
   * @return the method to add to the class as well, the chooser, or {@code null}
   */
  static MethodNode dispatch(
      String owner,
      MethodNode method,
      MethodNode withProbes,
      MethodNode depthOnly,
      String entry,
      boolean closable) {
    int choice = method.maxLocals; // a new local, used only here
    method.maxLocals++;
    LabelNode own = new LabelNode();
    InsnList code = choice(method, entry, closable, choice, own);
    MethodNode chooser = null;
    if (depthOnly != null) {
      chooser = chooser(owner, method, withProbes, depthOnly);
      code.add(callAndReturn(owner, method, chooser, choice));
    } else {
      code.add(callAndReturn(owner, method, withProbes, -1));
    }
    code.add(own);
    if (!startsWithFrame(method)) {
      code.add(frame(entryLocals(owner, method)));
    }
    method.instructions.insert(code);
    method.maxStack = Math.max(method.maxStack, argumentSlots(method) + 1);
    return chooser;
  }

  /**
   * The JIT's limit for inlining a method at a frequent call site ({@code FreqInlineSize}, 325
   * bytes on JDK 17 to 25): a method longer than this is never inlined, so its code may grow.
   */
  static final int FREQ_INLINE_SIZE = 325;

  /**
   * The most code a method with its copies inside may have: the JIT does not compile a method of
   * more than 8,000 bytes ({@code HugeMethodLimit}), and the estimate must stay clear of it.
   */
  static final int MAX_MERGED_SIZE = 7_000;

  /**
   * Whether the copies of {@code own} should go into its own body ({@link #merge}) rather than into
   * methods of their own. A copy in a method of its own has its own invocation counter: with one
   * invocation in 20, the copy of a method called once per request runs in the JIT's slow,
   * profiling code for minutes, and its compilation, when it comes, lands in the middle of the
   * service's traffic ({@code bench/LATENCY.md}). In the method's own body it is compiled with the
   * method, as soon as the method is hot. Only for a method the JIT would not inline anyway
   * (longer, with its dispatch, than {@link #FREQ_INLINE_SIZE}), so that no caller's inlining
   * changes, and only while the whole stays well under the size the JIT compiles at all.
   */
  static boolean mergeable(MethodNode own, MethodNode withProbes, MethodNode depthOnly) {
    int ownSize = BytecodeSize.of(own);
    if (ownSize + dispatchSize(own) <= FREQ_INLINE_SIZE) {
      return false;
    }
    int total = ownSize + BytecodeSize.of(withProbes);
    if (depthOnly != null) {
      total += BytecodeSize.of(depthOnly);
    }
    return total <= MAX_MERGED_SIZE;
  }

  /**
   * About how many bytes {@link #dispatch} adds in front of a method's own code: the entry's call,
   * the choice's store, load and test, the arguments' loads, the call to the chooser and the return
   * (and six more for the open test, with sampling windows). What the JIT weighs is the method with
   * it.
   */
  private static int dispatchSize(MethodNode method) {
    return 3 + 2 + 2 + 3 + 2 * argumentSlots(method) + 2 + 3 + 1;
  }

  /**
   * As {@link #dispatch}, with the copies' code inside {@code method} after its own, behind the
   * same choice: one method for the JIT, compiled once, whose profile counts every invocation. The
   * copies' stack traces then show the method's own name. {@code withProbes} and {@code depthOnly}
   * must be fully rewritten; they are not added to the class. As in {@link #dispatch}, without a
   * depth-only copy every invocation that is not the own code's runs {@code withProbes}.
   *
   * @param entry the {@code Entries} method that chooses, as in {@link #dispatch}
   * @param closable as in {@link #dispatch}
   */
  static void merge(
      MethodNode method,
      String owner,
      MethodNode withProbes,
      MethodNode depthOnly,
      String entry,
      boolean closable) {
    boolean twoCopies = depthOnly != null;
    int choice = method.maxLocals; // a new local, used only here
    method.maxLocals++;
    LabelNode own = new LabelNode();
    LabelNode probes = new LabelNode();
    LabelNode depth = twoCopies ? new LabelNode() : null;
    InsnList code = choice(method, entry, closable, choice, own);
    if (twoCopies) {
      code.add(new VarInsnNode(Opcodes.ILOAD, choice));
      code.add(new InsnNode(Opcodes.ICONST_1)); // Probes.PROBES
      code.add(new JumpInsnNode(Opcodes.IF_ICMPNE, depth));
    }
    code.add(new JumpInsnNode(Opcodes.GOTO, probes));
    code.add(own);
    List<Object> entryLocals = entryLocals(owner, method);
    if (!startsWithFrame(method)) {
      code.add(frame(entryLocals));
    }
    method.instructions.insert(code);
    append(method, withProbes, probes, entryLocals);
    if (twoCopies) {
      append(method, depthOnly, depth, entryLocals);
    }
    method.maxStack = Math.max(method.maxStack, Math.max(withProbes.maxStack, 2));
    method.maxLocals = Math.max(method.maxLocals, withProbes.maxLocals);
    if (twoCopies) {
      method.maxStack = Math.max(method.maxStack, depthOnly.maxStack);
      method.maxLocals = Math.max(method.maxLocals, depthOnly.maxLocals);
    }
  }

  /**
   * Appends {@code copy}'s code to {@code method} at {@code start}, which the dispatch jumps to
   * with the entry's locals; the copy's handlers go with it. Its local variable names do not: a
   * debugger shows the method's own.
   */
  private static void append(
      MethodNode method, MethodNode copy, LabelNode start, List<Object> entryLocals) {
    method.instructions.add(start);
    if (!startsWithFrame(copy)) {
      method.instructions.add(frame(entryLocals));
    }
    // stack: (empty, the copy's entry)
    method.instructions.add(copy.instructions);
    method.tryCatchBlocks.addAll(copy.tryCatchBlocks);
  }

  /**
   * The start of every dispatch: the entry's choice into local {@code choice}, and a jump to {@code
   * own} for {@code Probes.OWN}; the rest of the choice is left to the caller.
   */
  private static InsnList choice(
      MethodNode method, String entry, boolean closable, int choice, LabelNode own) {
    InsnList code = new InsnList();
    LineNumberNode firstLine = firstLine(method);
    if (firstLine != null) {
      // A stack trace through the dispatch names the method's first line, not "Unknown Source".
      LabelNode start = new LabelNode();
      code.add(start);
      code.add(new LineNumberNode(firstLine.line, start));
    }
    if (closable) {
      // Closed entries (between sampling windows) leave the own code to run without looking at
      // the thread.
      // stack: (empty, method entry)
      code.add(new MethodInsnNode(Opcodes.INVOKESTATIC, MethodRewriter.ENTRIES, "open", "()Z"));
      // stack: open
      code.add(new JumpInsnNode(Opcodes.IFEQ, own));
    }
    // stack: (empty, method entry)
    code.add(new MethodInsnNode(Opcodes.INVOKESTATIC, MethodRewriter.ENTRIES, entry, "()I"));
    code.add(new VarInsnNode(Opcodes.ISTORE, choice));
    code.add(new VarInsnNode(Opcodes.ILOAD, choice));
    code.add(new JumpInsnNode(Opcodes.IFEQ, own)); // Probes.OWN
    return code;
  }

  /**
   * {@code withProbes} for {@code Probes.PROBES}, else {@code depthOnly}: the method's arguments
   * and the choice, an int, last.
   */
  static MethodNode chooser(
      String owner, MethodNode method, MethodNode withProbes, MethodNode depthOnly) {
    String desc = method.desc.replace(")", "I)");
    MethodNode chooser =
        new MethodNode(
            Opcodes.ASM9,
            method.access,
            withProbes.name + MODE_SUFFIX,
            desc,
            null,
            method.exceptions.toArray(new String[0]));
    rename(chooser, chooser.name);
    int choice = argumentSlots(method);
    LabelNode depth = new LabelNode();
    InsnList code = chooser.instructions;
    // stack: (empty, method entry)
    code.add(new VarInsnNode(Opcodes.ILOAD, choice));
    code.add(new InsnNode(Opcodes.ICONST_1)); // Probes.PROBES
    code.add(new JumpInsnNode(Opcodes.IF_ICMPNE, depth));
    code.add(callAndReturn(owner, method, withProbes, -1));
    code.add(depth);
    List<Object> locals = entryLocals(owner, method);
    locals.add(Opcodes.INTEGER);
    code.add(frame(locals));
    code.add(callAndReturn(owner, method, depthOnly, -1));
    chooser.maxStack = Math.max(2, argumentSlots(method)); // 2: the choice and PROBES
    chooser.maxLocals = argumentSlots(method) + 1;
    return chooser;
  }

  /** The local slots of {@code this} and the arguments. */
  private static int argumentSlots(MethodNode method) {
    int withThis = Type.getArgumentsAndReturnSizes(method.desc) >> 2; // counts this, always
    return (method.access & Opcodes.ACC_STATIC) != 0 ? withThis - 1 : withThis;
  }

  private static LineNumberNode firstLine(MethodNode method) {
    for (AbstractInsnNode insn : method.instructions) {
      if (insn instanceof LineNumberNode line) {
        return line;
      }
    }
    return null;
  }

  /**
   * Loads {@code this} and the arguments (and the local {@code choice}, unless it is -1), calls
   * {@code target} and returns what it returns.
   */
  private static InsnList callAndReturn(
      String owner, MethodNode method, MethodNode target, int choice) {
    InsnList list = new InsnList();
    boolean isStatic = (method.access & Opcodes.ACC_STATIC) != 0;
    int slot = 0;
    if (!isStatic) {
      list.add(new VarInsnNode(Opcodes.ALOAD, 0));
      slot = 1;
    }
    for (Type arg : Type.getArgumentTypes(method.desc)) {
      list.add(new VarInsnNode(arg.getOpcode(Opcodes.ILOAD), slot));
      slot += arg.getSize();
    }
    if (choice >= 0) {
      list.add(new VarInsnNode(Opcodes.ILOAD, choice));
    }
    // stack: [this,] args... [, choice]
    int op = isStatic ? Opcodes.INVOKESTATIC : Opcodes.INVOKESPECIAL;
    list.add(new MethodInsnNode(op, owner, target.name, target.desc, false));
    list.add(new InsnNode(Type.getReturnType(method.desc).getOpcode(Opcodes.IRETURN)));
    return list;
  }

  /** Whether the method's first real instruction already has a frame (it is a jump target). */
  private static boolean startsWithFrame(MethodNode method) {
    for (AbstractInsnNode insn : method.instructions) {
      if (insn instanceof FrameNode) {
        return true;
      }
      if (insn.getOpcode() >= 0) {
        return false;
      }
    }
    return false;
  }

  private static FrameNode frame(List<Object> locals) {
    return new FrameNode(Opcodes.F_NEW, locals.size(), locals.toArray(), 0, new Object[0]);
  }

  /** The locals at entry, in the expanded frame format: {@code this}, then one per argument. */
  private static List<Object> entryLocals(String owner, MethodNode method) {
    List<Object> locals = new ArrayList<>();
    if ((method.access & Opcodes.ACC_STATIC) == 0) {
      locals.add(owner);
    }
    for (Type arg : Type.getArgumentTypes(method.desc)) {
      switch (arg.getSort()) {
        case Type.BOOLEAN, Type.BYTE, Type.CHAR, Type.SHORT, Type.INT ->
            locals.add(Opcodes.INTEGER);
        case Type.FLOAT -> locals.add(Opcodes.FLOAT);
        case Type.LONG -> locals.add(Opcodes.LONG);
        case Type.DOUBLE -> locals.add(Opcodes.DOUBLE);
        default -> locals.add(arg.getInternalName());
      }
    }
    return locals;
  }
}
