package dev.whyslow.agent.instrument;

import static org.assertj.core.api.Assertions.assertThat;

import dev.whyslow.agent.bootstrap.Probes;
import dev.whyslow.agent.bootstrap.RecordingUnitListener;
import dev.whyslow.agent.bootstrap.Units;
import dev.whyslow.agent.bootstrap.Whyslow;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.StreamSupport;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.tree.ClassNode;
import org.objectweb.asm.tree.MethodInsnNode;
import org.objectweb.asm.tree.MethodNode;
import sample.fixture.Recursion;

/**
 * A method that calls nothing but itself and the JDK decides once per recursion which code runs
 * ({@link SelfCalls}); one that calls the application, or may call an override, decides at every
 * level as before. Results are the original's whichever code runs.
 */
class SelfCallsTest {
  private static final String OWN = MethodCopies.SUFFIX + MethodCopies.OWN_SUFFIX;

  private CopiedFixtures.Installed installed;

  @BeforeEach
  void instrumentTheFixture() throws Exception {
    installed = CopiedFixtures.install(Recursion.class);
  }

  @AfterEach
  void restoreProbes() {
    CopiedFixtures.uninstall();
  }

  @Test
  void eachCodeOfAMethodThatRecursesAloneCallsItself() {
    ClassNode node = new ClassNode();
    new ClassReader(installed.bytes()).accept(node, 0);
    assertThat(selfCallTargets(method(node, "sum"), "sum")).containsExactly("sum" + OWN);
    assertThat(selfCallTargets(method(node, "sum" + OWN), "sum")).containsExactly("sum" + OWN);
    String copy = "sum" + MethodCopies.SUFFIX;
    assertThat(selfCallTargets(method(node, copy), "sum")).containsExactly(copy);
    String depth = copy + MethodCopies.DEPTH_SUFFIX;
    assertThat(selfCallTargets(method(node, depth), "sum")).containsExactly(depth);
    assertThat(method(node, "sum" + OWN).access & (Opcodes.ACC_PRIVATE | Opcodes.ACC_SYNTHETIC))
        .isEqualTo(Opcodes.ACC_PRIVATE | Opcodes.ACC_SYNTHETIC);
    assertThat(selfCallTargets(method(node, "walk"), "walk")).containsExactly("walk" + OWN);

    assertThat(selfCallTargets(method(node, "sumNoted"), "sumNoted"))
        .as("it calls the application too")
        .containsExactly("sumNoted");
    assertThat(selfCallTargets(method(node, "overridable"), "overridable"))
        .as("a subclass may override it")
        .containsExactly("overridable");
    assertThat(node.methods)
        .noneMatch(m -> m.name.equals("sumNoted" + OWN) || m.name.equals("overridable" + OWN));
  }

  @Test
  void resultsAreTheOriginalsInEveryCode() throws Exception {
    long[] expected = results(Recursion.class);
    Probes.setSamplingRate(1.0); // every invocation runs its copy with probes
    assertThat(results(installed.type())).containsExactly(expected);
    Probes.setSamplingRate(1e-6, 1e-6); // none does
    assertThat(results(installed.type())).containsExactly(expected);
    Units.install(new RecordingUnitListener());
    int depth = Probes.state().depth;
    Whyslow.unitBegin("test.unit");
    try {
      assertThat(results(installed.type())).containsExactly(expected);
    } finally {
      Whyslow.unitEnd();
    }
    assertThat(Probes.state().depth).isEqualTo(depth);
  }

  @Test
  void aRecursionIsSampledWholeOrNotAtAll() throws Exception {
    // Half the invocations chosen, every evaluation recorded in those: a recursion that decides
    // once records all of its levels or none; one that decides at every level records some.
    Probes.setSamplingRate(0.5, 0.5);
    Set<Long> alone = totalsPerCall("sum");
    Set<Long> noted = totalsPerCall("sumNoted");
    assertThat(alone).hasSize(2).contains(0L);
    long whole = alone.stream().mapToLong(Long::longValue).max().orElseThrow();
    assertThat(noted).anyMatch(t -> t > 0 && t < whole);
  }

  private Set<Long> totalsPerCall(String name) throws Exception {
    Set<Long> totals = new HashSet<>();
    for (int i = 0; i < 200; i++) {
      long before = total();
      installed.type().getMethod(name, int.class).invoke(null, 20);
      totals.add(total() - before);
    }
    return totals;
  }

  private static long[] results(Class<?> c) throws Exception {
    return new long[] {
      (long) c.getMethod("sum", int.class).invoke(null, 30),
      (long) c.getMethod("sumNoted", int.class).invoke(null, 30),
      (long) c.getMethod("leaves", int.class, int.class).invoke(null, 4, 3),
      (long) c.getMethod("overridableFrom", int.class).invoke(null, 12)
    };
  }

  private long total() {
    return CopiedFixtures.total(installed.counts());
  }

  private static MethodNode method(ClassNode node, String name) {
    return CopiedFixtures.method(node, name);
  }

  /**
   * The methods {@code method} calls for a call to {@code name}: itself or one of its copies (the
   * dispatch's chooser left out).
   */
  private static List<String> selfCallTargets(MethodNode method, String name) {
    return StreamSupport.stream(method.instructions.spliterator(), false)
        .filter(insn -> insn instanceof MethodInsnNode)
        .map(insn -> ((MethodInsnNode) insn).name)
        .filter(called -> called.equals(name) || called.startsWith(name + "$"))
        .filter(called -> !called.endsWith(MethodCopies.MODE_SUFFIX))
        .distinct()
        .toList();
  }
}
