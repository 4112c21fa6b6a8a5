package dev.whyslow.agent.instrument;

import static org.assertj.core.api.Assertions.assertThat;

import dev.whyslow.agent.config.ProbeSet;
import dev.whyslow.agent.core.SiteRegistry;
import dev.whyslow.protocol.Site;
import dev.whyslow.protocol.SiteKind;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.ClassWriter;
import org.objectweb.asm.Label;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.tree.ClassNode;
import org.objectweb.asm.tree.MethodNode;
import sample.fixture.Branchy;
import sample.fixture.LoopShapes;
import sample.fixture.Scalars;

class ClassInstrumenterTest {
  private final InstrumentationCounters counters = new InstrumentationCounters();

  @Test
  void classesBeyondThePredicateBudgetAreLeftAloneAndCounted() throws IOException {
    SiteRegistry registry = new SiteRegistry(4);
    byte[] out = new ClassInstrumenter(registry, ProbeSet.ALL, counters).instrument(bytes());
    assertThat(out).isNull();
    assertThat(counters.classesOverBudget()).isEqualTo(1);
    assertThat(registry.rejectedClasses()).isEqualTo(1);
    assertThat(registry.siteCount()).isZero();
  }

  @Test
  void theSameClassInstrumentedTwiceSharesItsSites() throws IOException {
    SiteRegistry registry = new SiteRegistry(10_000);
    ClassInstrumenter instrumenter = new ClassInstrumenter(registry, ProbeSet.ALL, counters);
    instrumenter.instrument(bytes());
    int sites = registry.siteCount();
    List<SiteRegistry.Entry> first = registry.entries();
    instrumenter.instrument(bytes());
    assertThat(registry.siteCount()).isEqualTo(sites);
    assertThat(registry.entries()).isEqualTo(first);
    List<Site> announced = new ArrayList<>();
    registry.announce(announced::addAll);
    assertThat(announced).as("announced once").hasSize(sites);
    assertThat(registry.hasUnannounced()).isFalse();
  }

  @Test
  void onlyTheConfiguredProbeFamiliesAreInserted() throws IOException {
    SiteRegistry registry = new SiteRegistry(10_000);
    new ClassInstrumenter(registry, new ProbeSet(false, true), counters).instrument(bytes());
    assertThat(registry.entries())
        .allSatisfy(e -> assertThat(e.site().kind().isBranch()).isFalse());
  }

  @Test
  void garbageIsRefusedByTheTransformerWithoutThrowing() {
    List<String> failures = new ArrayList<>();
    ProbeTransformer transformer =
        new ProbeTransformer(
            new Scope(List.of("x"), List.of()),
            new ClassInstrumenter(new SiteRegistry(100), ProbeSet.ALL, counters),
            counters,
            null,
            (name, error) -> failures.add(name));
    byte[] out =
        transformer.transform(null, null, "x/Broken", null, null, new byte[] {(byte) 0xCA, 1, 2});
    assertThat(out).isNull();
    assertThat(counters.classesFailed()).isEqualTo(1);
    assertThat(failures).containsExactly("x.Broken");
  }

  @Test
  void classesOutOfScopeAreNotTouched() {
    ProbeTransformer transformer =
        new ProbeTransformer(
            new Scope(List.of("java.util", "dev.whyslow"), List.of("java.util.concurrent")),
            new ClassInstrumenter(new SiteRegistry(100), ProbeSet.ALL, counters),
            counters,
            null,
            (name, error) -> {});
    for (String name :
        List.of("java/lang/String", "java/util/concurrent/Foo", "dev/whyslow/agent/core/X")) {
      assertThat(transformer.transform(null, null, name, null, null, new byte[1])).isNull();
    }
    assertThat(counters.classesFailed()).isZero();
  }

  @Test
  void aMethodThatWouldOutgrowTheCodeLimitIsLeftAsItWasAndTheRestIsInstrumented() {
    ClassWriter cw = new ClassWriter(ClassWriter.COMPUTE_FRAMES);
    cw.visit(Opcodes.V17, Opcodes.ACC_PUBLIC, "x/Huge", null, "java/lang/Object", null);
    MethodVisitor huge = cw.visitMethod(Opcodes.ACC_STATIC, "huge", "(I)I", null, null);
    huge.visitCode();
    // About 16,000 branches of 4 bytes each: fits the 64 KiB limit now, not with probes added.
    for (int i = 0; i < 16_000; i++) {
      Label next = new Label();
      huge.visitVarInsn(Opcodes.ILOAD, 0);
      huge.visitJumpInsn(Opcodes.IFEQ, next);
      huge.visitLabel(next);
    }
    huge.visitInsn(Opcodes.ICONST_0);
    huge.visitInsn(Opcodes.IRETURN);
    huge.visitMaxs(0, 0);
    huge.visitEnd();
    MethodVisitor small = cw.visitMethod(Opcodes.ACC_STATIC, "small", "(I)I", null, null);
    small.visitCode();
    Label done = new Label(); // a branch, so the method is not trivial and gets probes
    small.visitVarInsn(Opcodes.ILOAD, 0);
    small.visitJumpInsn(Opcodes.IFEQ, done);
    small.visitLabel(done);
    small.visitVarInsn(Opcodes.ILOAD, 0);
    small.visitInsn(Opcodes.IRETURN);
    small.visitMaxs(0, 0);
    small.visitEnd();
    cw.visitEnd();

    byte[] out =
        new ClassInstrumenter(new SiteRegistry(1_000_000), ProbeSet.ALL, counters)
            .instrument(cw.toByteArray());

    assertThat(out).isNotNull();
    assertThat(counters.methodsSkipped()).isEqualTo(1);
    ClassNode node = new ClassNode();
    new ClassReader(out).accept(node, 0);
    for (MethodNode m : node.methods) {
      boolean callsProbes = false;
      for (var insn : m.instructions) {
        if (insn instanceof org.objectweb.asm.tree.MethodInsnNode call
            && call.owner.equals(MethodRewriter.PROBES)) {
          callsProbes = true;
        }
      }
      assertThat(callsProbes).as(m.name).isEqualTo(m.name.equals("small"));
    }
  }

  @Test
  void everyFixtureVerifiesWithEveryProbeFamily() throws Exception {
    for (Class<?> fixture : List.of(Branchy.class, LoopShapes.class, Scalars.class)) {
      SiteRegistry registry = new SiteRegistry(100_000);
      byte[] out =
          new ClassInstrumenter(registry, ProbeSet.ALL, counters).instrument(bytes(fixture));
      assertThat(out).as(fixture.getName()).isNotNull();
      assertThat(registry.entries())
          .anySatisfy(e -> assertThat(e.site().kind()).isEqualTo(SiteKind.SCALAR_PAIR));
      // Initialising the class links it, and linking runs the verifier over every method.
      Class<?> loaded = Class.forName(fixture.getName(), true, new BytesLoader(fixture, out));
      assertThat(loaded.getClassLoader()).isInstanceOf(BytesLoader.class);
    }
    assertThat(counters.methodsSkipped()).isZero();
  }

  private static byte[] bytes() throws IOException {
    return bytes(Branchy.class);
  }

  private static byte[] bytes(Class<?> c) throws IOException {
    try (InputStream in = c.getResourceAsStream(c.getSimpleName() + ".class")) {
      return in.readAllBytes();
    }
  }
}
