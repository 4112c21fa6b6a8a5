package dev.whyslow.agent.instrument;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.whyslow.agent.bootstrap.Entries;
import dev.whyslow.agent.bootstrap.Probes;
import dev.whyslow.agent.bootstrap.RecordingUnitListener;
import dev.whyslow.agent.bootstrap.Units;
import dev.whyslow.agent.bootstrap.Whyslow;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.tree.AbstractInsnNode;
import org.objectweb.asm.tree.ClassNode;
import org.objectweb.asm.tree.MethodInsnNode;
import org.objectweb.asm.tree.MethodNode;
import sample.fixture.Depths;
import sample.fixture.InlineAndCopied;

/**
 * Instrumented methods keep their own code and choose at entry, with {@code Entries.entry()},
 * between it, their copy with probes (a sampled invocation) and their depth-only copy (inside a
 * unit). {@code Depths.calleeDepth()} shows which ran: 1 when frames count depth, 0 when they do
 * not. A share of 1 samples every invocation; a share of one in a million, none in these tests.
 */
class MethodCopiesTest {
  private CopiedFixtures.Installed installed;

  @BeforeEach
  void instrumentTheFixture() throws Exception {
    installed = CopiedFixtures.install(Depths.class);
    Probes.setSamplingRate(1.0);
  }

  @AfterEach
  void restoreProbes() {
    CopiedFixtures.uninstall();
  }

  @Test
  void aSampledInvocationRunsTheCopyWithProbes() throws Exception {
    assertThat(call("calleeDepth")).isEqualTo(1);
    assertThat(total()).isPositive();
  }

  @Test
  void anInvocationNotSampledRunsTheMethodsOwnCodeAndRecordsNothing() throws Exception {
    sampleNoInvocation();
    int before = Probes.state().depth;
    assertThat(call("calleeDepth")).isZero();
    assertThat(call("afterThrow")).isZero();
    assertThat(call("afterImplicitException")).isZero();
    assertThat(Probes.state().depth).isEqualTo(before);
    assertThat(total()).isZero();
  }

  @Test
  void withTheEntriesClosedEveryInvocationRunsTheOwnCodeEvenInAUnit() throws Exception {
    CopiedFixtures.uninstall();
    installed = CopiedFixtures.install(Depths.class, true);
    Probes.setSamplingRate(1.0);
    Entries.setOpen(false);
    try {
      assertThat(call("calleeDepth")).as("sampled at rate 1, were the entries open").isZero();
      Units.install(new RecordingUnitListener());
      Whyslow.unitBegin("test.unit");
      try {
        assertThat(call("calleeDepth")).as("no depth counted either").isZero();
        assertThat(call("throughShortCaller")).isZero();
      } finally {
        Whyslow.unitEnd();
      }
      assertThat(total()).isZero();
    } finally {
      Entries.setOpen(true);
    }
    assertThat(call("calleeDepth")).as("open again").isEqualTo(1);
    assertThat(total()).isPositive();
  }

  @Test
  void withoutSamplingWindowsNoMethodTestsWhetherTheEntriesAreOpen() throws Exception {
    Entries.setOpen(false);
    try {
      assertThat(call("calleeDepth")).as("sampled at rate 1: the copy ran").isEqualTo(1);
    } finally {
      Entries.setOpen(true);
    }
    ClassNode node = new ClassNode();
    new ClassReader(installed.bytes()).accept(node, 0);
    assertThat(node.methods)
        .allSatisfy(m -> assertThat(calls(m, MethodRewriter.ENTRIES, "open")).isZero());
  }

  @Test
  void insideAUnitInvocationsNotSampledCountDepthWithoutProbes() throws Exception {
    sampleNoInvocation();
    Units.install(new RecordingUnitListener());
    Whyslow.unitBegin("test.unit");
    try {
      assertThat(call("calleeDepth")).isEqualTo(1);
      assertThat(call("afterThrow")).isZero();
    } finally {
      Whyslow.unitEnd();
    }
    assertThat(total()).isZero();
    assertThat(call("calleeDepth")).as("the unit ended: own code again").isZero();
  }

  @Test
  void aMethodThatDoesNotCountDepthRunsItsOwnCodeInAUnitAndItsProbesWhenSampled() throws Exception {
    sampleNoInvocation();
    Units.install(new RecordingUnitListener());
    Whyslow.unitBegin("test.unit");
    try {
      assertThat(call("shortCalleeDepth")).isZero();
    } finally {
      Whyslow.unitEnd();
    }
    assertThat(total()).isZero();
    Probes.setSamplingRate(1.0);
    assertThat(call("shortCalleeDepth")).as("its copy has no depth count either").isZero();
    assertThat(total()).isPositive();
    ClassNode node = new ClassNode();
    new ClassReader(installed.bytes()).accept(node, 0);
    MethodNode own = method(node, "shortChild");
    assertThat(calls(own, MethodRewriter.ENTRIES, "followingEntry")).isOne();
    assertThat(calls(own, MethodRewriter.ENTRIES, "entry")).isZero();
    assertThat(node.methods)
        .noneMatch(m -> m.name.startsWith("shortChild" + MethodCopies.SUFFIX + "$"));
  }

  @Test
  void aShortMethodFollowsTheLastChoiceAndCountsDepthInAUnitIfItCallsTheApplication()
      throws Exception {
    sampleNoInvocation();
    assertThat(call("throughShortCaller")).as("outside a unit: own code").isZero();
    Units.install(new RecordingUnitListener());
    Whyslow.unitBegin("test.unit");
    try {
      assertThat(call("throughShortCaller")).isEqualTo(2);
    } finally {
      Whyslow.unitEnd();
    }
    assertThat(total()).isZero();
    ClassNode node = new ClassNode();
    new ClassReader(installed.bytes()).accept(node, 0);
    assertThat(calls(method(node, "shortCaller"), MethodRewriter.ENTRIES, "followingCountedEntry"))
        .isOne();
    assertThat(calls(method(node, "child"), MethodRewriter.ENTRIES, "entry")).isOne();
  }

  @Test
  void exceptionsLeaveEveryCopyAsTheyLeaveTheOriginal() {
    for (boolean sampled : new boolean[] {true, false}) {
      if (sampled) {
        Probes.setSamplingRate(1.0);
      } else {
        sampleNoInvocation();
      }
      assertThatThrownBy(() -> installed.type().getMethod("throwsOut").invoke(null))
          .isInstanceOf(InvocationTargetException.class)
          .cause()
          .isInstanceOf(IllegalStateException.class)
          .hasMessage("down here");
    }
  }

  @Test
  void probesLeftInlineKeepTheirSamplesWithTheShare() throws Exception {
    Class<?> loops = load(InlineAndCopied.class, instrument(InlineAndCopied.class));
    sampleNoInvocation();
    assertThat(loops.getConstructor(int.class).newInstance(10)).isNotNull();
    assertThat(loops.getMethod("evens", int.class).invoke(null, 10)).isEqualTo(5);
    assertThat(total()).as("the constructor's inline probes keep no sample").isZero();
    Probes.setSamplingRate(1.0);
    loops.getConstructor(int.class).newInstance(10);
    long constructorOnly = total();
    // 11 loop tests and 10 ifs, each counted at its site and at the predicate that held.
    assertThat(constructorOnly).isEqualTo(2 * 21);
    assertThat(loops.getMethod("evens", int.class).invoke(null, 10)).isEqualTo(5);
    assertThat(total()).isEqualTo(2 * constructorOnly + 4); // and the int return: site, 3 signs
  }

  @Test
  void aLambdaIsOneObjectWhetherTheOwnCodeOrACopyCreatedIt() throws Exception {
    Class<?> lambdas = load(InlineAndCopied.class, instrument(InlineAndCopied.class));
    Method evenTest = lambdas.getMethod("evenTest", boolean.class);
    Probes.setSamplingRate(1.0); // every invocation runs the copy with probes
    Object fromCopy = evenTest.invoke(null, false);
    sampleNoInvocation();
    Object fromOwnCode = evenTest.invoke(null, false);
    assertThat(fromOwnCode).isSameAs(fromCopy);
    Units.install(new RecordingUnitListener());
    Whyslow.unitBegin("test.unit");
    try {
      assertThat(evenTest.invoke(null, false)).as("from the depth-only copy").isSameAs(fromCopy);
    } finally {
      Whyslow.unitEnd();
    }
  }

  @Test
  void theMethodKeepsItsOwnCodeAndItsCopiesArePrivateAndSynthetic() {
    ClassNode node = new ClassNode();
    new ClassReader(installed.bytes()).accept(node, 0);
    MethodNode own = method(node, "calleeDepth");
    assertThat(calls(own, MethodRewriter.PROBES, "state")).as("own code: no state fetch").isOne();
    assertThat(calls(own, MethodRewriter.UNIT_ENTRIES, null)).isZero();
    MethodNode withProbes = method(node, "calleeDepth" + MethodCopies.SUFFIX);
    MethodNode depthOnly =
        method(node, "calleeDepth" + MethodCopies.SUFFIX + MethodCopies.DEPTH_SUFFIX);
    MethodNode chooser =
        method(node, "calleeDepth" + MethodCopies.SUFFIX + MethodCopies.MODE_SUFFIX);
    for (MethodNode copy : List.of(withProbes, depthOnly, chooser)) {
      assertThat(copy.access & (Opcodes.ACC_PRIVATE | Opcodes.ACC_SYNTHETIC))
          .as(copy.name)
          .isEqualTo(Opcodes.ACC_PRIVATE | Opcodes.ACC_SYNTHETIC);
    }
    assertThat(calls(withProbes, MethodRewriter.UNIT_ENTRIES, null)).isOne();
    assertThat(calls(depthOnly, MethodRewriter.UNIT_ENTRIES, null)).isOne();
    assertThat(calls(depthOnly, MethodRewriter.CHECKED, null)).isZero();
    // Constructors keep their code (and probes, if any) in place.
    assertThat(node.methods).noneMatch(m -> m.name.startsWith("<init>$"));
  }

  /** Every evaluation in a sampled invocation is recorded, but no invocation is sampled. */
  private static void sampleNoInvocation() {
    Probes.setSamplingRate(1e-6, 1e-6);
  }

  private byte[] instrument(Class<?> c) throws Exception {
    return CopiedFixtures.instrument(c, installed.registry());
  }

  private static Class<?> load(Class<?> c, byte[] bytes) throws Exception {
    return CopiedFixtures.load(c, bytes);
  }

  private int call(String name) throws Exception {
    return (int) installed.type().getMethod(name).invoke(null);
  }

  private long total() {
    return CopiedFixtures.total(installed.counts());
  }

  private static MethodNode method(ClassNode node, String name) {
    return CopiedFixtures.method(node, name);
  }

  /** Calls to {@code owner.name} in the method ({@code name} null: to any method of owner). */
  private static long calls(MethodNode method, String owner, String name) {
    long n = 0;
    for (AbstractInsnNode insn : method.instructions) {
      if (insn instanceof MethodInsnNode call
          && call.owner.equals(owner)
          && (name == null || call.name.equals(name))) {
        n++;
      }
    }
    return n;
  }
}
