package dev.whyslow.agent.instrument;

import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import org.objectweb.asm.Label;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.commons.AnalyzerAdapter;
import org.objectweb.asm.tree.AbstractInsnNode;
import org.objectweb.asm.tree.FrameNode;
import org.objectweb.asm.tree.InsnList;
import org.objectweb.asm.tree.LabelNode;
import org.objectweb.asm.tree.MethodNode;

/**
 * The verifier's view of locals and operand stack just before each probe point, which the frames
 * where control crosses between a method's fast and slow copies, and where a pure loop's exit is
 * settled, must declare. ASM's {@link AnalyzerAdapter} replays the method from its declared
 * (expanded) frames exactly as the type-checking verifier does, so no types are merged and no class
 * is loaded. A point where the frame is unknown (dead code after an unconditional jump without a
 * frame) gets no probe.
 */
final class ProbeFrames {
  /** For class files verified by type inference (before version 50): no frames are written. */
  static final ProbeFrames NONE = new ProbeFrames(null, null);

  /** The locals and stack in expanded-frame form: one element per long or double. */
  record Frame(List<Object> locals, List<Object> stack) {
    /**
     * Whether an object under construction ({@code new} not yet initialised) is in the frame: its
     * type names the {@code new} instruction, which differs between copies of the code.
     */
    boolean holdsNewObject() {
      return locals.stream().anyMatch(LabelNode.class::isInstance)
          || stack.stream().anyMatch(LabelNode.class::isInstance);
    }
  }

  private final Map<AbstractInsnNode, Frame> before;
  private final Map<AbstractInsnNode, Frame> after;

  private ProbeFrames(Map<AbstractInsnNode, Frame> before, Map<AbstractInsnNode, Frame> after) {
    this.before = before;
    this.after = after;
  }

  /**
   * Whether probes need stack map frames: every class file from version 51, or one that has them.
   */
  static boolean needed(int classVersion, MethodNode method) {
    if ((classVersion & 0xFFFF) >= Opcodes.V1_7) {
      return true;
    }
    if ((classVersion & 0xFFFF) < Opcodes.V1_6) {
      return false;
    }
    for (AbstractInsnNode insn : method.instructions) {
      if (insn instanceof FrameNode) {
        return true;
      }
    }
    return false; // version 50 without frames: the JVM falls back to type inference
  }

  /**
   * The frames before the instructions of {@code points}.
   *
   * @param owner the internal name of the method's class
   * @throws IllegalArgumentException for methods with subroutines ({@code jsr/ret})
   */
  static ProbeFrames of(String owner, MethodNode method, List<ProbePoint> points) {
    return of(owner, method, points, null);
  }

  /**
   * The frames before the instructions of {@code points} and, for a fast path, before each of its
   * boundaries and after every call, where control may cross between the two copies.
   *
   * @param fastPath the method's fast-path plan, or {@code null}
   */
  static ProbeFrames of(
      String owner, MethodNode method, List<ProbePoint> points, FastPathPlan fastPath) {
    InsnList insns = method.instructions;
    labelEveryNew(insns);
    Map<Label, LabelNode> labels = new IdentityHashMap<>(); // not HashMap: see CodeCopy.cloneOf
    for (AbstractInsnNode insn : insns) {
      if (insn instanceof LabelNode label) {
        labels.put(label.getLabel(), label);
      }
    }
    Map<AbstractInsnNode, Frame> wanted = new IdentityHashMap<>();
    for (ProbePoint point : points) {
      wanted.put(point.insn(), null);
    }
    if (fastPath != null) {
      for (AbstractInsnNode boundary : fastPath.boundaries().keySet()) {
        wanted.put(boundary, null);
      }
    }
    AnalyzerAdapter adapter =
        new AnalyzerAdapter(owner, method.access, method.name, method.desc, null);
    adapter.visitCode();
    Map<AbstractInsnNode, Frame> before = new IdentityHashMap<>();
    Map<AbstractInsnNode, Frame> after = new IdentityHashMap<>();
    for (AbstractInsnNode insn : insns) {
      // locals is null after a goto, return or throw, until the next declared frame
      if (wanted.containsKey(insn) && adapter.locals != null) {
        before.put(insn, current(adapter, labels));
      }
      insn.accept(adapter);
      if (fastPath != null && FastPathPlan.isCall(insn) && adapter.locals != null) {
        after.put(insn, current(adapter, labels));
      }
    }
    return new ProbeFrames(before, after);
  }

  private static Frame current(AnalyzerAdapter adapter, Map<Label, LabelNode> labels) {
    return new Frame(expanded(adapter.locals, labels), expanded(adapter.stack, labels));
  }

  /** Whether the probe at {@code insn} can be inserted: its frame is known or not needed. */
  boolean known(AbstractInsnNode insn) {
    return before == null || before.containsKey(insn);
  }

  /** The frame before {@code insn}, or {@code null} when no frames are written. */
  Frame before(AbstractInsnNode insn) {
    return before == null ? null : before.get(insn);
  }

  /** The frame right after the call {@code insn}, or {@code null} when unknown or not asked for. */
  Frame after(AbstractInsnNode insn) {
    return after == null ? null : after.get(insn);
  }

  /**
   * The adapter names an uninitialized object by the label just before its {@code new}, or by a
   * fresh label of its own when there is none, which no {@code LabelNode} would map back to.
   */
  private static void labelEveryNew(InsnList insns) {
    for (AbstractInsnNode insn : insns) {
      if (insn.getOpcode() == Opcodes.NEW && !(insn.getPrevious() instanceof LabelNode)) {
        insns.insertBefore(insn, new LabelNode());
      }
    }
  }

  /**
   * The adapter's list (a long or double takes two elements, the second TOP; uninitialized types
   * are {@link Label}s) in expanded-frame form (one element; {@link LabelNode}s).
   */
  private static List<Object> expanded(List<Object> types, Map<Label, LabelNode> labels) {
    List<Object> out = new ArrayList<>(types.size());
    for (int i = 0; i < types.size(); i++) {
      Object type = types.get(i);
      if (type instanceof Label label) {
        LabelNode node = labels.get(label);
        if (node == null) {
          throw new IllegalArgumentException("an uninitialized object without a label at its new");
        }
        out.add(node);
      } else {
        out.add(type);
        if (Opcodes.LONG.equals(type) || Opcodes.DOUBLE.equals(type)) {
          i++;
        }
      }
    }
    return out;
  }
}
