package dev.whyslow.agent.instrument;

import static org.assertj.core.api.Assertions.assertThat;

import dev.whyslow.agent.bootstrap.UnitEntries;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.Type;
import org.objectweb.asm.tree.ClassNode;
import org.objectweb.asm.tree.MethodNode;

/**
 * The bootstrap methods that instrumented code calls at every invocation or evaluation stay within
 * what C1 inlines, which the copies of per-request methods run in for minutes: at most 35 bytes
 * ({@code C1MaxInlineSize}, also C2's {@code MaxInlineSize} at a call site that is not hot), and
 * fewer slots of stack and locals besides the arguments than {@code C1InlineStackLimit} (5 on JDK
 * 17: PrintInlining showed a callee with 5 refused, "callee uses too much stack"). One over and C1
 * calls them instead: {@code Entries.entry} was 36 bytes, and the depth count's entry 63 bytes
 * (bench/LATENCY.md).
 */
class InlineBudgetTest {
  private static final int MAX_INLINE_SIZE = 35;

  private static final int C1_INLINE_STACK_LIMIT = 5;

  private static final String BOOTSTRAP = "dev/whyslow/agent/bootstrap/";

  @Test
  void theEntryChoiceAndTheDepthCountStayWithinWhatC1Inlines() throws IOException {
    List<MethodNode> methods = new ArrayList<>();
    methods.add(method("Entries", "entry"));
    methods.add(method("Entries", "sampledEntry"));
    methods.add(method("Entries", "followingEntry"));
    methods.add(method("Entries", "followingCountedEntry"));
    for (int word = 0; word < 4; word++) {
      methods.add(method("UnitEntries", "enter" + word));
    }

    assertThat(methods).allSatisfy(InlineBudgetTest::withinC1sInlining);
  }

  @Test
  void theEntryChoiceAndTheLookupFitTheSmallerLimitsOfNestedInlining() throws IOException {
    // C1 allows each level of inlining 90 % of the size of the level above: 31 bytes one level
    // down, where the dispatch of a short instrumented method inlined into its caller sits.
    assertThat(BytecodeSize.of(method("Entries", "entry"))).isLessThanOrEqualTo(31);
    assertThat(BytecodeSize.of(method("Entries", "sampledEntry"))).isLessThanOrEqualTo(31);
    assertThat(BytecodeSize.of(method("Entries", "followingEntry"))).isLessThanOrEqualTo(31);
    assertThat(BytecodeSize.of(method("Entries", "followingCountedEntry"))).isLessThanOrEqualTo(31);
    // And the lookup one and two levels below the entry's choice (at 33 bytes in one method, C1
    // found it "too large" there).
    assertThat(BytecodeSize.of(method("ThreadStates", "current"))).isLessThanOrEqualTo(28);
    assertThat(BytecodeSize.of(method("ThreadStates", "ownedOrClaimed"))).isLessThanOrEqualTo(25);
  }

  @Test
  void theThreadStateLookupStaysWithinWhatC1Inlines() throws IOException {
    // Once per invocation of a copy or of an own method: with the long id in a local it needed 7
    // slots, and C1 called it.
    assertThat(List.of(method("ThreadStates", "current"), method("ThreadStates", "ownedOrClaimed")))
        .allSatisfy(InlineBudgetTest::withinC1sInlining);
  }

  @Test
  void everyCheckedProbeOfBranchesAndReturnsStaysWithinWhatC1Inlines() throws IOException {
    List<MethodNode> probes = new ArrayList<>();
    for (MethodNode method : classNode("CheckedProbes").methods) {
      boolean api =
          (method.access & Opcodes.ACC_PUBLIC) != 0 && (method.access & Opcodes.ACC_STATIC) != 0;
      // Scalar pairs are off by default, and a long pair needs the stack of two longs.
      if (api && !method.name.startsWith("scalar")) {
        probes.add(method);
      }
    }

    assertThat(probes).hasSizeGreaterThan(10).allSatisfy(InlineBudgetTest::withinC1sInlining);
  }

  @Test
  void theEntryMethodIsChosenByTheWordOfTheMethodsWatchedBit() {
    assertThat(UnitEntries.nameFor(5)).isEqualTo("enter0");
    assertThat(UnitEntries.nameFor(64 + 5)).isEqualTo("enter1");
    assertThat(UnitEntries.nameFor(128)).isEqualTo("enter2");
    assertThat(UnitEntries.nameFor(256 + 192 + 1)).isEqualTo("enter3");
  }

  private static void withinC1sInlining(MethodNode method) {
    int argumentSlots = Type.getArgumentsAndReturnSizes(method.desc) >> 2;
    if ((method.access & Opcodes.ACC_STATIC) != 0) {
      argumentSlots--; // the count includes a receiver
    }
    assertThat(BytecodeSize.of(method))
        .as(method.name + " bytes")
        .isLessThanOrEqualTo(MAX_INLINE_SIZE);
    assertThat(method.maxStack + method.maxLocals - argumentSlots)
        .as(method.name + " stack and locals besides the arguments")
        .isLessThan(C1_INLINE_STACK_LIMIT);
  }

  private static MethodNode method(String owner, String name) throws IOException {
    for (MethodNode method : classNode(owner).methods) {
      if (method.name.equals(name)) {
        return method;
      }
    }
    throw new AssertionError("no method " + owner + "." + name);
  }

  private static ClassNode classNode(String simpleName) throws IOException {
    String resource = BOOTSTRAP + simpleName + ".class";
    try (InputStream in = InlineBudgetTest.class.getClassLoader().getResourceAsStream(resource)) {
      assertThat(in).as(resource).isNotNull();
      ClassNode node = new ClassNode();
      new ClassReader(in).accept(node, 0);
      return node;
    }
  }
}
