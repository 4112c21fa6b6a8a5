package dev.whyslow.agent.instrument;

import static dev.whyslow.agent.instrument.LocalTypes.INT;
import static dev.whyslow.agent.instrument.LocalTypes.LONG;
import static dev.whyslow.agent.instrument.LocalTypes.TOP;
import static org.assertj.core.api.Assertions.assertThat;
import static org.objectweb.asm.Opcodes.*;

import dev.whyslow.agent.bootstrap.ChunkedRunCounts;
import dev.whyslow.agent.bootstrap.Probes;
import dev.whyslow.agent.config.ProbeSet;
import dev.whyslow.agent.core.SiteRegistry;
import dev.whyslow.protocol.SiteKind;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.ClassWriter;
import org.objectweb.asm.Label;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.tree.AbstractInsnNode;
import org.objectweb.asm.tree.ClassNode;
import org.objectweb.asm.tree.MethodNode;

/**
 * The local types scalar pairs rely on, in hand-written bytecode: merges at joins and handlers in
 * old class files without stack map frames (the inference verifier's rules), the same code with
 * frames, and longs whose second half is overwritten. Each class is also instrumented with every
 * probe family and run in a fresh loader, so the JVM's verifier has the last word.
 */
class LocalTypesTest {
  private static final String NAME = "x/Shapes";

  @AfterEach
  void restoreProbes() {
    Probes.setProcessRun(null);
    Probes.setSamplingRate(1e-4);
  }

  @ParameterizedTest(name = "class file version {0}")
  @ValueSource(ints = {V1_5, V17})
  void aSlotIsAnIntAtAJoinOnlyWhenEveryPathLeavesAnIntThere(int version) {
    List<byte[]> stores = storeTypes(shapes(version), "join");
    // istore 1, istore 1, then at the join istore 2: slot 1 holds an int on both paths.
    assertThat(stores.get(2)).containsExactly(INT, INT, TOP, TOP, TOP);
    // After "if (p != 0) local3 = 5": slot 3 is an int on one path only.
    assertThat(stores.get(4)).containsExactly(INT, INT, INT, TOP, TOP);
  }

  @ParameterizedTest(name = "class file version {0}")
  @ValueSource(ints = {V1_5, V17})
  void aHandlerSeesOnlyWhatEveryProtectedInstructionAgreesOn(int version) {
    List<byte[]> stores = storeTypes(shapes(version), "handler");
    // The iinc in the handler: slot 1 is an int throughout the range; slot 2 was an int for a
    // while, then a float; slot 3 holds the exception.
    byte[] inHandler = stores.get(stores.size() - 1);
    assertThat(inHandler[1]).isEqualTo(INT);
    assertThat(inHandler[2]).isEqualTo(TOP);
  }

  @Test
  void overwritingEitherHalfOfALongForgetsTheLong() {
    List<byte[]> stores = storeTypes(shapes(V17), "halves");
    assertThat(stores.get(1)).containsExactly(INT, LONG, TOP, TOP, TOP); // before istore 2
    assertThat(stores.get(2)).containsExactly(INT, TOP, INT, TOP, TOP); // before istore 3
    assertThat(stores.get(4)).containsExactly(INT, TOP, INT, LONG, TOP); // before lstore 3
  }

  @ParameterizedTest(name = "class file version {0}")
  @ValueSource(ints = {V1_5, V17})
  void instrumentedShapesVerifyAndComputeTheSameResults(int version) throws Exception {
    byte[] original = shapes(version);
    SiteRegistry registry = new SiteRegistry(10_000);
    InstrumentationCounters counters = new InstrumentationCounters();
    byte[] instrumented =
        new ClassInstrumenter(registry, ProbeSet.ALL, counters).instrument(original);
    assertThat(counters.methodsSkipped()).isZero();
    assertThat(registry.entries())
        .anySatisfy(e -> assertThat(e.site().kind()).isEqualTo(SiteKind.SCALAR_PAIR));
    assertThat(registry.entries())
        .extracting(e -> e.site().detail())
        .contains("new local#1 vs old local#1", "new local#2 vs local#1")
        .doesNotContain("new local#4 vs local#3"); // slot 3 is an int on one path only

    Probes.setSamplingRate(1.0);
    Probes.setProcessRun(new ChunkedRunCounts(registry.slotCapacity()));
    Class<?> plain = new OneClassLoader(original).loadClass(NAME.replace('/', '.'));
    Class<?> probed = new OneClassLoader(instrumented).loadClass(NAME.replace('/', '.'));
    for (int p : new int[] {0, 1, 7}) {
      for (String method : List.of("join", "handler", "halves")) {
        assertThat(invoke(probed, method, p))
            .as(method + "(" + p + ")")
            .isEqualTo(invoke(plain, method, p));
      }
    }
  }

  private static Object invoke(Class<?> c, String name, int p) throws Exception {
    Method m = c.getMethod(name, int.class);
    return m.invoke(null, p);
  }

  /** The local types before each int/long store of the method, in code order. */
  private static List<byte[]> storeTypes(byte[] classFile, String methodName) {
    ClassNode node = new ClassNode();
    new ClassReader(classFile).accept(node, ClassReader.EXPAND_FRAMES);
    MethodNode method =
        node.methods.stream().filter(m -> m.name.equals(methodName)).findFirst().orElseThrow();
    LocalTypes types = LocalTypes.of(method);
    List<byte[]> out = new ArrayList<>();
    for (int i = 0; i < method.instructions.size(); i++) {
      AbstractInsnNode insn = method.instructions.get(i);
      if (LocalTypes.isScalarStore(insn.getOpcode())) {
        out.add(types.beforeStore(i));
      }
    }
    return out;
  }

  /**
   * Three static methods taking an int and returning an int. With {@code V1_5} the class has no
   * frames (the old verifier infers them); with {@code V17} ASM computes them.
   */
  private static byte[] shapes(int version) {
    ClassWriter cw = new ClassWriter(version >= V1_7 ? ClassWriter.COMPUTE_FRAMES : 0);
    cw.visit(version, ACC_PUBLIC, NAME, null, "java/lang/Object", null);
    join(cw.visitMethod(ACC_PUBLIC | ACC_STATIC, "join", "(I)I", null, null));
    handler(cw.visitMethod(ACC_PUBLIC | ACC_STATIC, "handler", "(I)I", null, null));
    halves(cw.visitMethod(ACC_PUBLIC | ACC_STATIC, "halves", "(I)I", null, null));
    cw.visitEnd();
    return cw.toByteArray();
  }

  /** {@code l1 = p != 0 ? 1 : 2; l2 = l1; if (p != 0) l3 = 5; l1 = l2; l4 = l1; return l4}. */
  private static void join(MethodVisitor mv) {
    Label otherwise = new Label();
    Label joined = new Label();
    Label skip = new Label();
    mv.visitCode();
    mv.visitVarInsn(ILOAD, 0);
    mv.visitJumpInsn(IFEQ, otherwise);
    mv.visitInsn(ICONST_1);
    mv.visitVarInsn(ISTORE, 1);
    mv.visitJumpInsn(GOTO, joined);
    mv.visitLabel(otherwise);
    mv.visitInsn(ICONST_2);
    mv.visitVarInsn(ISTORE, 1);
    mv.visitLabel(joined);
    mv.visitVarInsn(ILOAD, 1);
    mv.visitVarInsn(ISTORE, 2);
    mv.visitVarInsn(ILOAD, 0);
    mv.visitJumpInsn(IFEQ, skip);
    mv.visitInsn(ICONST_5);
    mv.visitVarInsn(ISTORE, 3);
    mv.visitLabel(skip);
    mv.visitVarInsn(ILOAD, 2);
    mv.visitVarInsn(ISTORE, 1);
    mv.visitVarInsn(ILOAD, 1);
    mv.visitVarInsn(ISTORE, 4);
    mv.visitVarInsn(ILOAD, 4);
    mv.visitInsn(IRETURN);
    mv.visitMaxs(1, 5);
    mv.visitEnd();
  }

  /**
   * {@code l1 = 0; try { l2 = 7; f2 = 0f; l1 = 10 / p; } catch (ArithmeticException e) { l1++; }
   * return l1}.
   */
  private static void handler(MethodVisitor mv) {
    Label start = new Label();
    Label end = new Label();
    Label handler = new Label();
    Label done = new Label();
    mv.visitCode();
    mv.visitTryCatchBlock(start, end, handler, "java/lang/ArithmeticException");
    mv.visitInsn(ICONST_0);
    mv.visitVarInsn(ISTORE, 1);
    mv.visitLabel(start);
    mv.visitIntInsn(BIPUSH, 7);
    mv.visitVarInsn(ISTORE, 2);
    mv.visitInsn(FCONST_0);
    mv.visitVarInsn(FSTORE, 2);
    mv.visitIntInsn(BIPUSH, 10);
    mv.visitVarInsn(ILOAD, 0);
    mv.visitInsn(IDIV);
    mv.visitVarInsn(ISTORE, 1);
    mv.visitLabel(end);
    mv.visitJumpInsn(GOTO, done);
    mv.visitLabel(handler);
    mv.visitVarInsn(ASTORE, 3);
    mv.visitIincInsn(1, 1);
    mv.visitLabel(done);
    mv.visitVarInsn(ILOAD, 1);
    mv.visitInsn(IRETURN);
    mv.visitMaxs(2, 4);
    mv.visitEnd();
  }

  /**
   * {@code j1 = 0L; l2 = 3; l3 = p; j3 = 9L; j3 = p; return (int) j3 + l2}: the int in slot 2
   * overwrites the second half of j1, the long in slots 3-4 replaces the int l3.
   */
  private static void halves(MethodVisitor mv) {
    mv.visitCode();
    mv.visitInsn(LCONST_0);
    mv.visitVarInsn(LSTORE, 1); // long in 1-2
    mv.visitInsn(ICONST_3);
    mv.visitVarInsn(ISTORE, 2); // overwrites its second half
    mv.visitVarInsn(ILOAD, 0);
    mv.visitVarInsn(ISTORE, 3);
    mv.visitLdcInsn(9L);
    mv.visitVarInsn(LSTORE, 3); // long in 3-4
    mv.visitVarInsn(ILOAD, 0);
    mv.visitInsn(I2L);
    mv.visitVarInsn(LSTORE, 3);
    mv.visitVarInsn(LLOAD, 3);
    mv.visitInsn(L2I);
    mv.visitVarInsn(ILOAD, 2);
    mv.visitInsn(IADD);
    mv.visitInsn(IRETURN);
    mv.visitMaxs(4, 5);
    mv.visitEnd();
  }

  /** Defines one class from bytes; everything else, the probes included, comes from the parent. */
  private static final class OneClassLoader extends ClassLoader {
    private final byte[] bytes;

    OneClassLoader(byte[] bytes) {
      super(LocalTypesTest.class.getClassLoader());
      this.bytes = bytes;
    }

    @Override
    protected Class<?> findClass(String name) throws ClassNotFoundException {
      if (!name.equals(NAME.replace('/', '.'))) {
        throw new ClassNotFoundException(name);
      }
      return defineClass(name, bytes, 0, bytes.length);
    }
  }
}
