package dev.whyslow.agent.instrument;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.Type;
import org.objectweb.asm.tree.AbstractInsnNode;
import org.objectweb.asm.tree.ClassNode;
import org.objectweb.asm.tree.FieldInsnNode;
import org.objectweb.asm.tree.FieldNode;
import org.objectweb.asm.tree.FrameNode;
import org.objectweb.asm.tree.InsnList;
import org.objectweb.asm.tree.InsnNode;
import org.objectweb.asm.tree.JumpInsnNode;
import org.objectweb.asm.tree.LabelNode;
import org.objectweb.asm.tree.MethodInsnNode;
import org.objectweb.asm.tree.MethodNode;
import org.objectweb.asm.tree.TryCatchBlockNode;
import org.objectweb.asm.tree.VarInsnNode;

/**
 * The caller's side of {@link CallerSampled}: in a copy with probes, a call to a method sampled
 * from its callers goes to that method's copy with probes instead. A method of the caller's own
 * class is called directly, since the same transformation adds its copy. A method of another class
 * of the package is judged from that class's file ({@link ClassFiles}), a guess that its own
 * transformation will add the copy; the call goes through a small private helper of the caller's
 * class that calls the copy and, if the guess was wrong (the class was left as it was, or read
 * differently), catches the {@link IncompatibleClassChangeError} of the missing copy, remembers it
 * in a static flag and calls the method itself from then on.
 */
final class CallerCalls {
  /** At most this many class files are read for one caller, so that no class costs much. */
  static final int MAX_CLASS_FILES = 32;

  static final String HELPER_PREFIX = "whyslow$call$";

  static final String MISSING_PREFIX = "whyslow$missing$";

  private static final String MISSING = "java/lang/IncompatibleClassChangeError";

  private final ClassNode node;
  private final String packagePrefix;
  private final ClassFiles files;
  private final Map<String, Set<String>> sampledByOwner = new HashMap<>();
  private final Map<String, MethodNode> helpers = new HashMap<>();
  private final List<FieldNode> flags = new ArrayList<>();
  private int filesRead;

  /**
   * @param own the methods of {@code node} sampled from their callers, judged before any changed
   */
  CallerCalls(ClassNode node, Set<String> own, ClassFiles files) {
    this.node = node;
    this.packagePrefix = node.name.substring(0, node.name.lastIndexOf('/') + 1);
    this.files = files;
    sampledByOwner.put(node.name, own);
    files.remember(node.name, own);
  }

  /**
   * Points {@code copy}'s calls to methods sampled from their callers at their copies with probes.
   *
   * @return how many calls now go to a copy
   */
  int retarget(MethodNode copy) {
    List<MethodInsnNode> calls = new ArrayList<>();
    for (AbstractInsnNode insn : copy.instructions) {
      if (insn instanceof MethodInsnNode call && reachesACopy(call)) {
        calls.add(call);
      }
    }
    for (MethodInsnNode call : calls) {
      if (call.owner.equals(node.name)) {
        call.name = call.name + MethodCopies.SUFFIX; // same access as the method: the same call
      } else {
        // stack: [receiver,] args... (the helper takes the receiver as its first argument)
        MethodNode helper = helperFor(call);
        copy.instructions.set(
            call,
            new MethodInsnNode(Opcodes.INVOKESTATIC, node.name, helper.name, helper.desc, false));
      }
    }
    return calls.size();
  }

  /** Adds the helpers and their flags to the class. */
  void addHelpers() {
    node.methods.addAll(helpers.values());
    node.fields.addAll(flags);
  }

  private boolean reachesACopy(MethodInsnNode call) {
    int op = call.getOpcode();
    if (call.itf || op == Opcodes.INVOKEINTERFACE) {
      return false;
    }
    Set<String> sampled = sampledOf(call.owner);
    return sampled.contains(call.name + call.desc);
  }

  private Set<String> sampledOf(String owner) {
    Set<String> known = sampledByOwner.get(owner);
    if (known != null) {
      return known;
    }
    Set<String> sampled = Set.of();
    boolean samePackage =
        owner.startsWith(packagePrefix) && owner.indexOf('/', packagePrefix.length()) < 0;
    if (samePackage && filesRead < MAX_CLASS_FILES) {
      filesRead++;
      sampled = files.callerSampledOf(owner);
    }
    sampledByOwner.put(owner, sampled);
    return sampled;
  }

  /**
   * The helper that calls {@code call}'s target's copy, made once per target:
   *
   * <pre>{@code
   * private static synthetic R whyslow$call$N([Owner receiver,] args...) {
   *   if (!whyslow$missing$N) {
   *     try { return [receiver.]name$whyslow(args...); }
   *     catch (IncompatibleClassChangeError missing) { whyslow$missing$N = true; }
   *   }
   *   return [receiver.]name(args...);
   * }
   * }</pre>
   */
  private MethodNode helperFor(MethodInsnNode call) {
    boolean isStatic = call.getOpcode() == Opcodes.INVOKESTATIC;
    String key = call.owner + '.' + call.name + call.desc + (isStatic ? "S" : "V");
    MethodNode known = helpers.get(key);
    if (known != null) {
      return known;
    }
    int n = helpers.size();
    String desc = isStatic ? call.desc : "(L" + call.owner + ";" + call.desc.substring(1);
    MethodNode helper =
        new MethodNode(
            Opcodes.ASM9,
            Opcodes.ACC_PRIVATE | Opcodes.ACC_STATIC | Opcodes.ACC_SYNTHETIC,
            HELPER_PREFIX + n,
            desc,
            null,
            null);
    FieldNode flag =
        new FieldNode(
            Opcodes.ACC_PRIVATE | Opcodes.ACC_STATIC | Opcodes.ACC_SYNTHETIC,
            MISSING_PREFIX + n,
            "Z",
            null,
            null);
    List<Object> locals = MethodCopies.entryLocals(node.name, helper); // a static method's
    int op = isStatic ? Opcodes.INVOKESTATIC : Opcodes.INVOKEVIRTUAL;
    LabelNode tryStart = new LabelNode();
    LabelNode tryEnd = new LabelNode();
    LabelNode handler = new LabelNode();
    LabelNode plain = new LabelNode();
    InsnList code = helper.instructions;
    // stack: (empty, method entry)
    code.add(new FieldInsnNode(Opcodes.GETSTATIC, node.name, flag.name, "Z"));
    code.add(new JumpInsnNode(Opcodes.IFNE, plain));
    code.add(tryStart);
    code.add(loadArguments(desc));
    // stack: [receiver,] args...
    code.add(new MethodInsnNode(op, call.owner, call.name + MethodCopies.SUFFIX, call.desc, false));
    code.add(tryEnd);
    code.add(new InsnNode(Type.getReturnType(desc).getOpcode(Opcodes.IRETURN)));
    code.add(handler);
    code.add(
        new FrameNode(Opcodes.F_NEW, locals.size(), locals.toArray(), 1, new Object[] {MISSING}));
    // stack: missing
    code.add(new InsnNode(Opcodes.POP));
    code.add(new InsnNode(Opcodes.ICONST_1));
    code.add(new FieldInsnNode(Opcodes.PUTSTATIC, node.name, flag.name, "Z"));
    code.add(plain);
    code.add(new FrameNode(Opcodes.F_NEW, locals.size(), locals.toArray(), 0, new Object[0]));
    code.add(loadArguments(desc));
    // stack: [receiver,] args...
    code.add(new MethodInsnNode(op, call.owner, call.name, call.desc, false));
    code.add(new InsnNode(Type.getReturnType(desc).getOpcode(Opcodes.IRETURN)));
    helper.tryCatchBlocks.add(new TryCatchBlockNode(tryStart, tryEnd, handler, MISSING));
    int argumentSlots = Type.getArgumentsAndReturnSizes(desc) >> 2; // counts a this it lacks
    helper.maxLocals = argumentSlots - 1;
    helper.maxStack = Math.max(2, argumentSlots - 1);
    helpers.put(key, helper);
    flags.add(flag);
    return helper;
  }

  /** Loads every argument of a static method of descriptor {@code desc}, in order. */
  private static InsnList loadArguments(String desc) {
    InsnList list = new InsnList();
    int slot = 0;
    for (Type arg : Type.getArgumentTypes(desc)) {
      list.add(new VarInsnNode(arg.getOpcode(Opcodes.ILOAD), slot));
      slot += arg.getSize();
    }
    return list;
  }
}
