package dev.whyslow.agent.instrument;

import java.io.Serializable;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.tree.ClassNode;
import org.objectweb.asm.tree.FieldNode;
import org.objectweb.asm.tree.MethodNode;

/**
 * Short methods whose probes run only when a caller's copy with probes calls them. A short method
 * that calls only the JDK ({@code Catalog.postings}, {@code JsonOut.end}) used to ask at entry
 * whether its thread's last choice was to sample ({@code Probes.followingEntry}); on the shop's
 * request path those entries cost 2.5 to 3 points, and leaving the methods as javac wrote them took
 * that away (bench/LATENCY.md). So such a method keeps its code exactly as javac wrote it, with no
 * entry, and gets a copy with probes, {@code name$whyslow}, that the copies with probes of its
 * callers call instead ({@link CallerCalls}). Its invocations run their probes when their caller
 * runs its copy, with probability share, as before; only the calls that come from elsewhere (the
 * JDK, reflection, a method reference) are never sampled.
 *
 * <p>Only methods whose every caller can be seen and bound at compile time: not public or protected
 * (so every caller is in the package), static, private or final or of a final class (so the call
 * runs this code whatever the receiver), neither synchronized nor a lambda body. The rule reads
 * nothing but the class file as javac wrote it, so a caller applies it to its callee's class file
 * and gets the answer the callee's own transformation gets.
 *
 * <p>A copy that other classes call must not be private, and a method that is not private changes a
 * class's default serial version: so a class that might be {@link Serializable} without declaring
 * its {@code serialVersionUID} keeps only its private methods' copies callable.
 */
final class CallerSampled {
  private static final int NOT_ELIGIBLE =
      Opcodes.ACC_PUBLIC
          | Opcodes.ACC_PROTECTED
          | Opcodes.ACC_SYNCHRONIZED
          | Opcodes.ACC_SYNTHETIC
          | Opcodes.ACC_BRIDGE;

  /** JDK interfaces judged so far: whether each extends {@link Serializable}. */
  private static final Map<String, Boolean> SERIALIZABLE_INTERFACES = new ConcurrentHashMap<>();

  private CallerSampled() {}

  /**
   * Whether {@code method} of {@code owner}, as javac wrote it, is sampled from its callers' copies
   * instead of at its own entry.
   */
  static boolean eligible(ClassNode owner, MethodNode method) {
    return mayCallCopies(owner)
        && (method.access & NOT_ELIGIBLE) == 0
        && !method.name.startsWith("<")
        && !method.name.startsWith("lambda$")
        && MethodPlanner.instrumentable(method)
        && MethodCopies.dispatchable(owner, method)
        && staticallyBound(owner.access, method.access)
        && DepthCounting.isShort(method)
        && !DepthCounting.counts(method)
        && !MethodPlanner.isTrivial(method) // no branch and no return probe: nothing to sample
        && !SelfCalls.recursesAlone(owner.name, owner.access, method)
        && keepsSerialForm(owner, method);
  }

  /**
   * Whether {@code owner}'s copies may call other copies, and its methods be called so: a class,
   * not an interface, of a version (Java 7 on) whose methods all carry stack map frames.
   */
  static boolean mayCallCopies(ClassNode owner) {
    return (owner.access & (Opcodes.ACC_INTERFACE | Opcodes.ACC_MODULE)) == 0
        && (owner.version & 0xFFFF) >= Opcodes.V1_7;
  }

  /** The name and descriptor of each method of {@code owner} sampled from its callers. */
  static Set<String> of(ClassNode owner) {
    Set<String> methods = new HashSet<>();
    for (MethodNode method : owner.methods) {
      if (eligible(owner, method)) {
        methods.add(method.name + method.desc);
      }
    }
    return methods;
  }

  /**
   * The access of {@code method}'s copy with probes: what the method has, so that whatever may call
   * the method may call the copy; synthetic, and final where it could be overridden.
   */
  static int copyAccess(int methodAccess) {
    int kept = methodAccess & (Opcodes.ACC_STATIC | Opcodes.ACC_STRICT | Opcodes.ACC_PRIVATE);
    boolean overridable = (methodAccess & (Opcodes.ACC_STATIC | Opcodes.ACC_PRIVATE)) == 0;
    return kept | Opcodes.ACC_SYNTHETIC | (overridable ? Opcodes.ACC_FINAL : 0);
  }

  private static boolean staticallyBound(int classAccess, int methodAccess) {
    return (methodAccess & (Opcodes.ACC_STATIC | Opcodes.ACC_PRIVATE | Opcodes.ACC_FINAL)) != 0
        || (classAccess & Opcodes.ACC_FINAL) != 0;
  }

  /**
   * Whether a package-visible copy leaves the class's default serial version as it was: true for a
   * private method, a record or enum (whose serial version is not checked), a class declaring its
   * own, and a class that cannot be serializable (it extends {@code Object} and implements only JDK
   * interfaces that do not extend {@link Serializable}).
   */
  private static boolean keepsSerialForm(ClassNode owner, MethodNode method) {
    if ((method.access & Opcodes.ACC_PRIVATE) != 0
        || "java/lang/Record".equals(owner.superName)
        || "java/lang/Enum".equals(owner.superName)
        || declaresSerialVersion(owner)) {
      return true;
    }
    if (!"java/lang/Object".equals(owner.superName)) {
      return false;
    }
    for (String itf : owner.interfaces) {
      if (!DepthCounting.jdk(itf)
          || SERIALIZABLE_INTERFACES.computeIfAbsent(itf, CallerSampled::serializable)) {
        return false;
      }
    }
    return true;
  }

  private static boolean declaresSerialVersion(ClassNode owner) {
    for (FieldNode field : owner.fields) {
      if (field.name.equals("serialVersionUID") && field.desc.equals("J")) {
        return true;
      }
    }
    return false;
  }

  /**
   * Whether the JDK interface {@code internalName} extends {@link Serializable}; if unsure, yes.
   */
  private static boolean serializable(String internalName) {
    try {
      Class<?> itf =
          Class.forName(
              internalName.replace('/', '.'), false, ClassLoader.getPlatformClassLoader());
      return Serializable.class.isAssignableFrom(itf);
    } catch (ClassNotFoundException | LinkageError | RuntimeException unknown) {
      return true;
    }
  }
}
