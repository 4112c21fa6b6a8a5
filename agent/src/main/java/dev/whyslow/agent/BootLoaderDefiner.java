package dev.whyslow.agent;

import org.objectweb.asm.ClassWriter;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.Type;

/**
 * The class file of a tiny class that defines classes in the bootstrap class loader by calling the
 * JDK's internal {@code Unsafe.defineClass} directly. It is generated rather than compiled because
 * javac will not compile a call into {@code jdk.internal.misc} for {@code --release 17}, and
 * reaching the method by reflection instead costs some 30 ms of the service's start-up on JDK 25,
 * which spins method handles for a six-argument reflective call.
 *
 * <p>The class implements {@code BiConsumer<String, byte[]>} (binary name, class file) and refers
 * to nothing but {@code java.*} and {@code jdk.internal.misc}. It is defined in one of two places
 * ({@link BootstrapClasses}): in {@code jdk.unsupported}'s package {@code sun.misc} ({@link
 * #IN_JDK_UNSUPPORTED}), a module {@code java.base} exports {@code jdk.internal.misc} to already;
 * or, where that module is missing, as {@link #NAME} in a class loader of its own, whose module
 * {@code jdk.internal.misc} must first be exported to. In that form its static initializer hands an
 * instance to the class loader that defined it, which must be a {@code Consumer} of it.
 */
final class BootLoaderDefiner {
  /** The binary name of the generated class in a class loader of its own. */
  static final String NAME = "dev.whyslow.agent.definer.BootLoaderDefiner";

  /** Its binary name in {@code jdk.unsupported}, where it has no static initializer. */
  static final String IN_JDK_UNSUPPORTED = "sun.misc.WhyslowBootLoaderDefiner";

  private static final String UNSAFE = "jdk/internal/misc/Unsafe";
  private static final String DEFINE_CLASS =
      "(Ljava/lang/String;[BIILjava/lang/ClassLoader;Ljava/security/ProtectionDomain;)"
          + "Ljava/lang/Class;";

  private BootLoaderDefiner() {}

  /** The class as {@link #NAME}, handing an instance to its class loader as it initializes. */
  static byte[] classFile() {
    return classFile(NAME, true);
  }

  /** The class as {@link #IN_JDK_UNSUPPORTED}, to be created through its public constructor. */
  static byte[] classFileInJdkUnsupported() {
    return classFile(IN_JDK_UNSUPPORTED, false);
  }

  private static byte[] classFile(String binaryName, boolean handsOverAnInstance) {
    String internalName = binaryName.replace('.', '/');
    ClassWriter writer = new ClassWriter(ClassWriter.COMPUTE_MAXS);
    writer.visit(
        Opcodes.V17,
        Opcodes.ACC_PUBLIC | Opcodes.ACC_FINAL | Opcodes.ACC_SUPER,
        internalName,
        null,
        "java/lang/Object",
        new String[] {"java/util/function/BiConsumer"});
    constructor(writer);
    if (handsOverAnInstance) {
      handOverAnInstance(writer, internalName);
    }
    accept(writer);
    writer.visitEnd();
    return writer.toByteArray();
  }

  private static void constructor(ClassWriter writer) {
    MethodVisitor m = writer.visitMethod(Opcodes.ACC_PUBLIC, "<init>", "()V", null, null);
    m.visitCode();
    m.visitVarInsn(Opcodes.ALOAD, 0);
    m.visitMethodInsn(Opcodes.INVOKESPECIAL, "java/lang/Object", "<init>", "()V", false);
    m.visitInsn(Opcodes.RETURN);
    m.visitMaxs(0, 0);
    m.visitEnd();
  }

  /**
   * {@code ((Consumer) BootLoaderDefiner.class.getClassLoader()).accept(new BootLoaderDefiner())}
   */
  private static void handOverAnInstance(ClassWriter writer, String internalName) {
    MethodVisitor m = writer.visitMethod(Opcodes.ACC_STATIC, "<clinit>", "()V", null, null);
    m.visitCode();
    m.visitLdcInsn(Type.getObjectType(internalName));
    m.visitMethodInsn(
        Opcodes.INVOKEVIRTUAL,
        "java/lang/Class",
        "getClassLoader",
        "()Ljava/lang/ClassLoader;",
        false);
    m.visitTypeInsn(Opcodes.CHECKCAST, "java/util/function/Consumer");
    m.visitTypeInsn(Opcodes.NEW, internalName);
    m.visitInsn(Opcodes.DUP);
    m.visitMethodInsn(Opcodes.INVOKESPECIAL, internalName, "<init>", "()V", false);
    m.visitMethodInsn(
        Opcodes.INVOKEINTERFACE,
        "java/util/function/Consumer",
        "accept",
        "(Ljava/lang/Object;)V",
        true);
    m.visitInsn(Opcodes.RETURN);
    m.visitMaxs(0, 0);
    m.visitEnd();
  }

  /**
   * {@code accept(name, bytes)}: {@code Unsafe.getUnsafe().defineClass(name, bytes, 0,
   * bytes.length, null, null)}, the null loader being the bootstrap loader.
   */
  private static void accept(ClassWriter writer) {
    MethodVisitor m =
        writer.visitMethod(
            Opcodes.ACC_PUBLIC, "accept", "(Ljava/lang/Object;Ljava/lang/Object;)V", null, null);
    m.visitCode();
    m.visitMethodInsn(Opcodes.INVOKESTATIC, UNSAFE, "getUnsafe", "()L" + UNSAFE + ";", false);
    m.visitVarInsn(Opcodes.ALOAD, 1);
    m.visitTypeInsn(Opcodes.CHECKCAST, "java/lang/String");
    m.visitVarInsn(Opcodes.ALOAD, 2);
    m.visitTypeInsn(Opcodes.CHECKCAST, "[B");
    m.visitInsn(Opcodes.ICONST_0);
    m.visitVarInsn(Opcodes.ALOAD, 2);
    m.visitTypeInsn(Opcodes.CHECKCAST, "[B");
    m.visitInsn(Opcodes.ARRAYLENGTH);
    m.visitInsn(Opcodes.ACONST_NULL);
    m.visitInsn(Opcodes.ACONST_NULL);
    m.visitMethodInsn(Opcodes.INVOKEVIRTUAL, UNSAFE, "defineClass", DEFINE_CLASS, false);
    m.visitInsn(Opcodes.POP);
    m.visitInsn(Opcodes.RETURN);
    m.visitMaxs(0, 0);
    m.visitEnd();
  }
}
