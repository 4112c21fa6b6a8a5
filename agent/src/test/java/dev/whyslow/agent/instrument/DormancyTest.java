package dev.whyslow.agent.instrument;

import static org.assertj.core.api.Assertions.assertThat;

import dev.whyslow.agent.bootstrap.ChunkedRunCounts;
import dev.whyslow.agent.bootstrap.Probes;
import dev.whyslow.agent.config.ProbeSet;
import dev.whyslow.agent.core.MethodRegistry;
import dev.whyslow.agent.core.SiteRegistry;
import java.io.InputStream;
import java.lang.reflect.Method;
import java.util.List;
import java.util.TreeSet;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.tree.AbstractInsnNode;
import org.objectweb.asm.tree.ClassNode;
import org.objectweb.asm.tree.FieldNode;
import org.objectweb.asm.tree.IntInsnNode;
import org.objectweb.asm.tree.JumpInsnNode;
import org.objectweb.asm.tree.LabelNode;
import org.objectweb.asm.tree.LdcInsnNode;
import org.objectweb.asm.tree.MethodInsnNode;
import org.objectweb.asm.tree.MethodNode;
import org.objectweb.asm.tree.VarInsnNode;
import sample.fixture.Sleepy;

/**
 * A class's dormant form: the members of its full form, so that a retransformation may switch
 * between them, with the code as written in every method but its unit wrappers and guards.
 */
class DormancyTest {
  private final SiteRegistry registry = new SiteRegistry(10_000);
  private final MethodRegistry methods = new MethodRegistry();
  private final GuardMethods guards = new GuardMethods();
  private final InstrumentationCounters counters = new InstrumentationCounters();

  @AfterEach
  void restoreProbes() {
    CopiedFixtures.uninstall();
  }

  @Test
  void theDormantFormHasExactlyTheMembersOfTheFullOne() throws Exception {
    ClassNode full = node(instrument(false));
    ClassNode dormant = node(instrument(true));

    assertThat(members(dormant)).isEqualTo(members(full));
    assertThat(members(full)).anyMatch(m -> m.contains(MethodCopies.SUFFIX));
  }

  @Test
  void dormantMethodsRunTheCodeAsWritten() throws Exception {
    ClassNode written = node(original());
    ClassNode full = node(instrument(false));
    ClassNode dormant = node(instrument(true));

    for (String name : List.of("sign", "sumOfPositives")) {
      assertThat(code(dormant, name)).isEqualTo(code(written, name));
      assertThat(code(full, name)).isNotEqualTo(code(written, name));
    }
    assertThat(counters.methodsDormant()).isGreaterThanOrEqualTo(2);
  }

  @Test
  void unitWrappersStayWhileDormant() throws Exception {
    ClassNode dormant = node(instrument(true));

    assertThat(code(dormant, "handle")).contains(MethodRewriter.UNITS + ".begin");
  }

  @Test
  void aGuardRunsItsCodeAsWrittenAfterOneCallThatTypesTheUnit() throws Exception {
    int id = methods.idOf(Sleepy.class.getName(), "signs", "([I)I");
    guards.set(new int[] {id});
    ClassNode written = node(original());
    ClassNode full = node(instrument(false));
    ClassNode dormant = node(instrument(true));

    assertThat(code(full, "signs")).contains("guardEntry");
    assertThat(code(dormant, "signs"))
        .isEqualTo(
            "18 "
                + id
                + "\n184 "
                + MethodRewriter.UNITS
                + ".dormantGuard(I)V\n"
                + code(written, "signs"));
    assertThat(code(dormant, "sumOfPositives")).isEqualTo(code(written, "sumOfPositives"));
  }

  @Test
  void aDormantClassRecordsNoSamplesAndComputesTheSame() throws Exception {
    Probes.setSamplingRate(1.0);
    long full = samplesAndCheck(instrument(false));
    long dormant = samplesAndCheck(instrument(true));

    assertThat(full).isGreaterThan(0);
    assertThat(dormant).isZero();
  }

  /** Runs the class from {@code bytes}, checks its results, and returns the samples it recorded. */
  private long samplesAndCheck(byte[] bytes) throws Exception {
    ChunkedRunCounts counts = new ChunkedRunCounts(registry.slotCapacity());
    Probes.setProcessRun(counts);
    Class<?> type = CopiedFixtures.load(Sleepy.class, bytes);
    Method sign = type.getMethod("sign", int.class);
    Method sum = type.getMethod("sumOfPositives", int[].class);
    for (int i = -50; i <= 50; i++) {
      assertThat(sign.invoke(null, i)).isEqualTo(Integer.signum(i));
    }
    assertThat(sum.invoke(null, (Object) new int[] {3, -1, 4, -1, 5})).isEqualTo(12);
    Probes.setProcessRun(null);
    return CopiedFixtures.total(counts);
  }

  private byte[] instrument(boolean dormant) throws Exception {
    Dormancy dormancy = new Dormancy();
    dormancy.set(dormant);
    return new ClassInstrumenter(
            registry, ProbeSet.DEFAULT, counters, methods, true, List.of(), true, guards, dormancy)
        .instrument(original());
  }

  private static byte[] original() throws Exception {
    try (InputStream in = Sleepy.class.getResourceAsStream("Sleepy.class")) {
      return in.readAllBytes();
    }
  }

  private static ClassNode node(byte[] bytes) {
    ClassNode node = new ClassNode();
    new ClassReader(bytes).accept(node, ClassReader.SKIP_FRAMES);
    return node;
  }

  private static TreeSet<String> members(ClassNode node) {
    TreeSet<String> out = new TreeSet<>();
    for (MethodNode m : node.methods) {
      out.add(m.name + m.desc + " " + m.access);
    }
    for (FieldNode f : node.fields) {
      out.add(f.name + ":" + f.desc + " " + f.access);
    }
    return out;
  }

  /** Which label of the method {@code label} is, counting from 0. */
  private static int labelNumber(MethodNode m, LabelNode label) {
    int n = 0;
    for (AbstractInsnNode insn : m.instructions) {
      if (insn == label) {
        return n;
      }
      if (insn instanceof LabelNode) {
        n++;
      }
    }
    throw new AssertionError("label not in the method");
  }

  /** The method's instructions as text: opcodes with their operands, labels by number. */
  private static String code(ClassNode node, String name) {
    for (MethodNode m : node.methods) {
      if (m.name.equals(name)) {
        StringBuilder out = new StringBuilder();
        for (AbstractInsnNode insn : m.instructions) {
          if (insn.getOpcode() < 0) {
            continue; // labels, lines, frames
          }
          out.append(insn.getOpcode());
          if (insn instanceof MethodInsnNode call) {
            out.append(' ').append(call.owner).append('.').append(call.name).append(call.desc);
          } else if (insn instanceof VarInsnNode v) {
            out.append(' ').append(v.var);
          } else if (insn instanceof IntInsnNode i) {
            out.append(' ').append(i.operand);
          } else if (insn instanceof LdcInsnNode ldc) {
            out.append(' ').append(ldc.cst);
          } else if (insn instanceof JumpInsnNode jump) {
            out.append(" -> label ").append(labelNumber(m, jump.label));
          }
          out.append('\n');
        }
        return out.toString();
      }
    }
    throw new AssertionError("no method " + name);
  }
}
