package dev.whyslow.agent.instrument;

import static org.assertj.core.api.Assertions.assertThat;

import dev.whyslow.agent.bootstrap.ChunkedRunCounts;
import dev.whyslow.agent.bootstrap.Probes;
import dev.whyslow.agent.bootstrap.ThreadState;
import dev.whyslow.agent.config.ProbeSet;
import dev.whyslow.agent.core.ProcessRunBuilder;
import dev.whyslow.agent.core.SiteRegistry;
import java.io.InputStream;
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
import org.objectweb.asm.tree.FieldInsnNode;
import org.objectweb.asm.tree.IincInsnNode;
import org.objectweb.asm.tree.MethodInsnNode;
import org.objectweb.asm.tree.MethodNode;
import sample.fixture.Countdowns;

/**
 * The countdown lives in a local of the instrumented method: the unsampled path touches no field,
 * yet the thread's field is the truth whenever control leaves the method (call, return, throw) and
 * is read back after calls and in handlers, so the geometric sampling stays exact across methods.
 */
class CountdownLocalTest {
  private static final int[] XS = {3, 12, 7, 25, 1};
  private static final int LOOP = 2 * XS.length + 2; // evaluations of one countBelow(XS, b)

  private SiteRegistry registry;
  private ChunkedRunCounts counts;
  private byte[] instrumented;
  private Class<?> fixture;

  @BeforeEach
  void instrumentTheFixture() throws Exception {
    registry = new SiteRegistry(10_000);
    counts = new ChunkedRunCounts(registry.slotCapacity());
    byte[] original;
    try (InputStream in = Countdowns.class.getResourceAsStream("Countdowns.class")) {
      original = in.readAllBytes();
    }
    instrumented =
        new ClassInstrumenter(registry, ProbeSet.DEFAULT, new InstrumentationCounters())
            .instrument(original);
    fixture =
        Class.forName(
            Countdowns.class.getName(), true, new BytesLoader(Countdowns.class, instrumented));
    Probes.setProcessRun(counts);
    // The tests set the countdown themselves; a draw after a sample is ~10^6, far beyond them.
    Probes.setSamplingRate(1e-6);
  }

  @AfterEach
  void restoreProbes() {
    Probes.setEnabled(true);
    Probes.setProcessRun(null);
    Probes.setSamplingRate(1e-4);
  }

  @Test
  void aLoopsFastCopyDecrementsInlineAndTouchesNoField() {
    MethodNode m = method("countBelow");
    int countdown = m.maxLocals - 1;
    int decrements = 0;
    int reads = 0;
    int writes = 0;
    int checkedCalls = 0;
    for (AbstractInsnNode insn : m.instructions) {
      if (insn instanceof IincInsnNode iinc && iinc.var == countdown && iinc.incr == -1) {
        decrements++;
      } else if (insn instanceof FieldInsnNode field && field.name.equals("countdown")) {
        reads += field.getOpcode() == Opcodes.GETFIELD ? 1 : 0;
        writes += field.getOpcode() == Opcodes.PUTFIELD ? 1 : 0;
      } else if (insn instanceof MethodInsnNode call) {
        assertThat(call.owner).isIn(MethodRewriter.PROBES, MethodRewriter.CHECKED);
        checkedCalls += call.owner.equals(MethodRewriter.CHECKED) ? 1 : 0;
      }
    }
    // The loop holds probes, so the method has the fast path: a copy with bare decrements and the
    // original with a checked probe per site, which decrements in CheckedProbes.
    assertThat(decrements).as("one bare decrement per site in the fast copy").isEqualTo(3);
    assertThat(checkedCalls).as("one checked probe per site, in the slow copy").isEqualTo(3);
    assertThat(reads).as("read once, at entry").isEqualTo(1);
    assertThat(writes).as("written back at the return of each copy").isEqualTo(2);
  }

  @Test
  void aLoopWhoseOnlyProbeIsItsConditionIsSettledAtItsExitWithNoCheckInside() {
    for (String name : List.of("skipBelow", "sumThenCount")) {
      MethodNode m = method(name);
      long settles =
          stream(m)
              .filter(i -> i instanceof MethodInsnNode call && call.name.equals("loopExit"))
              .count();
      long checkedSamples =
          stream(m)
              .filter(
                  i ->
                      i instanceof MethodInsnNode call
                          && call.owner.equals(MethodRewriter.CHECKED)
                          && call.name.startsWith("if"))
              .count();
      // One settle per pure loop in each copy; the loops' branches are never checked one by one.
      assertThat(settles)
          .as("%s: settles at loop exits", name)
          .isEqualTo(name.equals("skipBelow") ? 2 : 4);
      assertThat(checkedSamples).as("%s: per-evaluation sampled branch paths", name).isZero();
    }
  }

  @Test
  void aPureLoopRecordsTheEvaluationThatBringsTheCountdownToZero() throws Exception {
    ThreadState s = Probes.state();
    int[] xs = {1, 2, 3, 40};
    s.countdown = 2; // the second loop test (xs[1] < 20): continues
    assertThat(call("skipBelow", xs, 20)).isEqualTo(3);
    assertThat(observedOf("skipBelow")).as("the loop branch, the return").containsExactly(1L, 0L);
    // javac tests a while loop at its top and jumps out when the test fails: continuing is the
    // branch not taken, predicate 1.
    assertThat(trueCountsOf("skipBelow")).containsExactly("[0, 1]");
  }

  @Test
  void aReturningMethodLeavesItsEvaluationsInTheField() throws Exception {
    ThreadState s = Probes.state();
    s.countdown = 1_000_000;
    assertThat(call("countBelow", XS, 10)).isEqualTo(Countdowns.countBelow(XS, 10));
    assertThat(s.countdown).isEqualTo(1_000_000 - LOOP);
    assertThat(totalObserved()).isZero();
  }

  @Test
  void theEvaluationThatBringsTheCountdownToZeroIsTheOneRecorded() throws Exception {
    ThreadState s = Probes.state();
    s.countdown = 5; // loop test, comparison, loop test, comparison, loop test (i = 2)
    call("countBelow", XS, 10);
    List<Long> observed = observedOf("countBelow");
    assertThat(observed).containsExactly(1L, 0L, 0L);
  }

  @Test
  void callerAndCalleeShareOneCountdown() throws Exception {
    ThreadState s = Probes.state();
    s.countdown = 1_000_000;
    call("twice", XS);
    assertThat(s.countdown).isEqualTo(1_000_000 - 2 * LOOP - 1);

    s.countdown = LOOP + 2; // the second call's second evaluation: its first comparison
    call("twice", XS);
    assertThat(observedOf("countBelow")).containsExactly(0L, 1L, 0L);
    assertThat(observedOf("twice")).containsExactly(0L);
  }

  @Test
  void callsInLineLeaveTheFieldTheTruthFromTheFirstToTheLast() {
    MethodNode m = method("twice");
    long reads = fieldAccesses(m, Opcodes.GETFIELD);
    long writes = fieldAccesses(m, Opcodes.PUTFIELD);
    // Nothing between the two calls reads the local countdown (CallChains): the first call is not
    // followed by a reload, nor the second preceded by a write-back.
    // callerAndCalleeShareOneCountdown
    // shows the count stays exact.
    assertThat(reads).as("read at entry and after the second call").isEqualTo(2);
    assertThat(writes).as("written back before the first call and at the return").isEqualTo(2);
  }

  @Test
  void aHandlerSeesTheEvaluationsOfTheCalleeThatThrew() throws Exception {
    ThreadState s = Probes.state();
    s.countdown = 1_000_000;
    assertThat(call("caught", XS)).isEqualTo(-1);
    // Without the reload in the handler, the caller would write back its stale copy on return.
    assertThat(s.countdown).isEqualTo(1_000_000 - LOOP - 1);

    s.countdown = LOOP + 1; // the handler's return
    call("caught", XS);
    assertThat(observedOf("caught")).containsExactly(0L, 1L);
  }

  @Test
  void theKillSwitchStopsRecordingInAMethodAlreadyRunning() throws Exception {
    Probes.setSamplingRate(1.0);
    Runnable kill = () -> Probes.setEnabled(false);
    assertThat(call("afterCallback", kill, XS)).isEqualTo(Countdowns.countBelow(XS, 10));
    assertThat(totalObserved()).isZero();

    Probes.setEnabled(true);
    call("afterCallback", (Runnable) () -> {}, XS);
    assertThat(totalObserved()).isEqualTo(LOOP);
  }

  private MethodNode method(String name) {
    ClassNode node = new ClassNode();
    new ClassReader(instrumented).accept(node, 0);
    return node.methods.stream().filter(m -> m.name.equals(name)).findFirst().orElseThrow();
  }

  private static long fieldAccesses(MethodNode m, int opcode) {
    return stream(m)
        .filter(
            i ->
                i instanceof FieldInsnNode field
                    && field.name.equals("countdown")
                    && field.getOpcode() == opcode)
        .count();
  }

  private static java.util.stream.Stream<AbstractInsnNode> stream(MethodNode m) {
    return java.util.stream.StreamSupport.stream(m.instructions.spliterator(), false);
  }

  private Object call(String name, Object... args) throws Exception {
    for (Method m : fixture.getMethods()) {
      if (m.getName().equals(name)) {
        try {
          return m.invoke(null, args);
        } catch (InvocationTargetException e) {
          throw (Exception) e.getCause();
        }
      }
    }
    throw new NoSuchMethodException(name);
  }

  private List<Long> observedOf(String method) {
    return registry.entries().stream()
        .filter(e -> e.site().methodName().equals(method))
        .map(e -> ProcessRunBuilder.countsOf(e, counts).observed())
        .toList();
  }

  private List<String> trueCountsOf(String method) {
    return registry.entries().stream()
        .filter(e -> e.site().methodName().equals(method))
        .map(e -> ProcessRunBuilder.countsOf(e, counts))
        .filter(c -> c.observed() > 0)
        .map(c -> java.util.Arrays.toString(c.trueCounts()))
        .toList();
  }

  private long totalObserved() {
    return registry.entries().stream()
        .mapToLong(e -> ProcessRunBuilder.countsOf(e, counts).observed())
        .sum();
  }
}
