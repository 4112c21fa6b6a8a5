package dev.whyslow.agent.instrument;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.whyslow.agent.bootstrap.ChunkedRunCounts;
import dev.whyslow.agent.bootstrap.Probes;
import dev.whyslow.agent.bootstrap.RecordingUnitListener;
import dev.whyslow.agent.bootstrap.Units;
import dev.whyslow.agent.bootstrap.Whyslow;
import dev.whyslow.agent.core.SiteRegistry;
import java.io.InputStream;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.util.List;
import java.util.concurrent.Callable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.tree.AbstractInsnNode;
import org.objectweb.asm.tree.ClassNode;
import org.objectweb.asm.tree.MethodInsnNode;
import org.objectweb.asm.tree.MethodNode;
import sample.fixture.LongMethods;

/**
 * A method longer than the JIT inlines keeps its copies in its own body ({@link
 * MethodCopies#merge}): one method, whose every code — its own, the one with probes, the depth-only
 * one — computes what the original does, records what probes inline record, and counts depth as the
 * copies in methods of their own do.
 */
class MergedCopiesTest {
  private static final int[][] INPUTS = {
    {}, {1}, {-4, 7, 0, 12, 9}, {5, 5, 5, 5, 5, 5}, {-1, -2, -3}, {2, 4, 6, 8, 10, 3, 21, 14},
  };
  private static final String[] MODES = {"12", "x", "", "3", null};

  private CopiedFixtures.Installed installed;

  @BeforeEach
  void instrumentTheFixture() throws Exception {
    installed = CopiedFixtures.install(LongMethods.class);
  }

  @AfterEach
  void restoreProbes() {
    CopiedFixtures.uninstall();
  }

  @Test
  void theCopiesOfALongMethodAreInItsOwnBody() {
    ClassNode node = new ClassNode();
    new ClassReader(installed.bytes()).accept(node, 0);
    for (String name : List.of("score", "calleeDepth", "throwsOut")) {
      assertThat(node.methods).noneMatch(m -> m.name.startsWith(name + MethodCopies.SUFFIX));
      MethodNode merged = CopiedFixtures.method(node, name);
      assertThat(calls(merged, MethodRewriter.ENTRIES, "entry")).as(name).isOne();
      assertThat(calls(merged, MethodRewriter.UNIT_ENTRIES, null)).as(name).isEqualTo(2);
    }
    assertThat(node.methods)
        .as("a short method keeps copies of its own")
        .anyMatch(m -> m.name.equals("thrower" + MethodCopies.SUFFIX));
  }

  @Test
  void theSizeEstimateIsCloseToTheCodeJavacWrote() throws Exception {
    ClassNode node = new ClassNode();
    try (InputStream in = LongMethods.class.getResourceAsStream("LongMethods.class")) {
      new ClassReader(in.readAllBytes()).accept(node, 0);
    }
    // javap -c shows score's last instruction, an lreturn, at 406: 407 bytes of code (javac 17).
    assertThat(BytecodeSize.of(CopiedFixtures.method(node, "score"))).isBetween(390, 425);
    assertThat(BytecodeSize.of(CopiedFixtures.method(node, "depthOfCallee"))).isBetween(22, 26);
  }

  @Test
  void everyCodeOfALongMethodComputesWhatTheOriginalDoes() throws Exception {
    Method score = installed.type().getMethod("score", int[].class, String.class);
    Method throwsOut = installed.type().getMethod("throwsOut", int[].class);
    for (Runnable mode : codes()) {
      mode.run();
      inEveryUnitState(
          () -> {
            for (int[] values : INPUTS) {
              for (String m : MODES) {
                assertThat(score.invoke(null, values, m)).isEqualTo(LongMethods.score(values, m));
              }
              assertThat(throwsOut.invoke(null, (Object) values))
                  .isEqualTo(LongMethods.throwsOut(values));
            }
            return null;
          });
    }
  }

  @Test
  void aSampledInvocationRecordsWhatProbesInlineRecord() throws Exception {
    Probes.setSamplingRate(1.0); // every invocation sampled, every evaluation recorded
    Method merged = installed.type().getMethod("score", int[].class, String.class);
    for (int[] values : INPUTS) {
      merged.invoke(null, values, "x");
    }
    long recordedMerged = CopiedFixtures.total(installed.counts());

    SiteRegistry registry = new SiteRegistry(10_000);
    ChunkedRunCounts inlineCounts = new ChunkedRunCounts(registry.slotCapacity());
    Class<?> inline =
        CopiedFixtures.load(
            LongMethods.class, CopiedFixtures.instrument(LongMethods.class, registry, false));
    Probes.setProcessRun(inlineCounts);
    Method inlineScore = inline.getMethod("score", int[].class, String.class);
    for (int[] values : INPUTS) {
      inlineScore.invoke(null, values, "x");
    }
    assertThat(recordedMerged).isPositive().isEqualTo(CopiedFixtures.total(inlineCounts));
  }

  @Test
  void aLongMethodCountsItsFrameWhenSampledAndInAUnitOnly() throws Exception {
    Method calleeDepth = installed.type().getMethod("calleeDepth", int[].class);
    int[] values = {3, -4, 5};
    int before = Probes.state().depth;
    Probes.setSamplingRate(1.0);
    assertThat(calleeDepth.invoke(null, (Object) values)).as("sampled").isEqualTo(1);
    sampleNoInvocation();
    assertThat(calleeDepth.invoke(null, (Object) values)).as("own code").isEqualTo(0);
    Units.install(new RecordingUnitListener());
    Whyslow.unitBegin("test.unit");
    try {
      assertThat(calleeDepth.invoke(null, (Object) values)).as("depth-only").isEqualTo(1);
    } finally {
      Whyslow.unitEnd();
    }
    assertThat(Probes.state().depth).isEqualTo(before);
  }

  @Test
  void exceptionsLeaveALongMethodAsTheyLeaveTheOriginal() throws Exception {
    Method throwsOut = installed.type().getMethod("throwsOut", int[].class);
    int[] values = {4, 13, 2};
    String message = null;
    try {
      LongMethods.throwsOut(values);
    } catch (IllegalStateException e) {
      message = e.getMessage();
    }
    assertThat(message).startsWith("thirteen at ");
    String expected = message;
    for (Runnable mode : codes()) {
      mode.run();
      inEveryUnitState(
          () -> {
            assertThatThrownBy(() -> throwsOut.invoke(null, (Object) values))
                .isInstanceOf(InvocationTargetException.class)
                .cause()
                .isInstanceOf(IllegalStateException.class)
                .hasMessage(expected);
            return null;
          });
    }
  }

  /** Sampling every invocation (the copy with probes), then none (own code, or depth-only). */
  private static List<Runnable> codes() {
    return List.of(() -> Probes.setSamplingRate(1.0), MergedCopiesTest::sampleNoInvocation);
  }

  /** Runs {@code check} outside a unit, then inside one. */
  private static void inEveryUnitState(Callable<Void> check) throws Exception {
    check.call();
    Units.install(new RecordingUnitListener());
    Whyslow.unitBegin("test.unit");
    try {
      check.call();
    } finally {
      Whyslow.unitEnd();
      Units.install(null);
    }
  }

  private static void sampleNoInvocation() {
    Probes.setSamplingRate(1e-6, 1e-6);
  }

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
