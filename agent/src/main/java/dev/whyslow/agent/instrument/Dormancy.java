package dev.whyslow.agent.instrument;

import java.util.HashMap;
import java.util.Map;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.tree.ClassNode;
import org.objectweb.asm.tree.InsnList;
import org.objectweb.asm.tree.LdcInsnNode;
import org.objectweb.asm.tree.MethodInsnNode;
import org.objectweb.asm.tree.MethodNode;

/**
 * Whether classes in scope are instrumented in full or lie dormant between sampling windows. A
 * dormant class keeps every member the instrumenter gave it (a retransformation may neither add nor
 * remove one), but its methods run the code javac wrote: no entry choice, no probes, no depth
 * count. Only its unit wrappers and the trained guards' entries stay, so units are still timed and
 * typed. Set by the agent before it retransforms the classes ({@code SamplingWindows}); read by
 * {@link ClassInstrumenter} for every class it instruments from then on.
 *
 * <p>Why not a flag tested at each entry: a test is what the request path paid for already. The
 * cost measured on the example shop was not the entry's few instructions but what they do to the
 * JIT (short methods grown past what C2 inlines, bench/LATENCY.md); only the code as written gives
 * the JIT what it had without the agent.
 */
public final class Dormancy {
  private volatile boolean dormant;

  /** Whether classes instrumented from now on get their dormant form. */
  public boolean isDormant() {
    return dormant;
  }

  /** Makes classes instrumented from now on dormant ({@code true}) or instrumented in full. */
  public void set(boolean dormant) {
    this.dormant = dormant;
  }

  /**
   * The methods of {@code classFile} in their dormant form, by name and descriptor: as written,
   * with the unit wrappers {@code units} puts in.
   */
  static Map<String, MethodNode> dormantMethods(byte[] classFile, UnitWrapper units) {
    ClassNode node = new ClassNode();
    new ClassReader(classFile).accept(node, ClassReader.EXPAND_FRAMES);
    units.wrap(node, true);
    Map<String, MethodNode> out = new HashMap<>();
    for (MethodNode m : node.methods) {
      out.put(m.name + m.desc, m);
    }
    return out;
  }

  /**
   * Gives every method of {@code node} that {@code dormant} has its dormant form; the methods the
   * instrumenter added stay, never called. A guard method ({@code guards}, by name and descriptor,
   * with its method id) gets one call in front of its code, {@code Units.dormantGuard(id)}, so that
   * units are still typed. Returns how many methods went dormant.
   */
  static int restore(ClassNode node, Map<String, MethodNode> dormant, Map<String, Integer> guards) {
    int restored = 0;
    for (int i = 0; i < node.methods.size(); i++) {
      MethodNode m = node.methods.get(i);
      String key = m.name + m.desc;
      MethodNode form = dormant.get(key);
      if (form == null) {
        continue;
      }
      Integer guard = guards.get(key);
      if (guard != null) {
        InsnList head = new InsnList();
        // stack: (empty, method entry)
        head.add(new LdcInsnNode(guard));
        // stack: methodId
        head.add(
            new MethodInsnNode(
                Opcodes.INVOKESTATIC, MethodRewriter.UNITS, "dormantGuard", "(I)V", false));
        form.instructions.insert(head);
        form.maxStack = Math.max(form.maxStack, 1);
      }
      node.methods.set(i, form);
      restored++;
    }
    return restored;
  }
}
