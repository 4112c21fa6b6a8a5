package dev.whyslow.agent.instrument;

import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import org.objectweb.asm.tree.AbstractInsnNode;
import org.objectweb.asm.tree.InsnList;
import org.objectweb.asm.tree.LabelNode;
import org.objectweb.asm.tree.LocalVariableNode;
import org.objectweb.asm.tree.MethodNode;
import org.objectweb.asm.tree.TryCatchBlockNode;

/**
 * One copy of a method's code while it is rewritten: the original, which gets the checked probes,
 * or a clone of it, which gets the fast path. Instructions of the original are the names by which
 * both copies are addressed; each copy also keeps the labels where control enters it from the other
 * copy.
 */
final class CodeCopy {
  final InsnList list;
  final boolean fast;
  private final Map<LabelNode, LabelNode> labels;
  private final Map<AbstractInsnNode, AbstractInsnNode> clones;
  private final List<TryCatchBlockNode> handlers = new ArrayList<>();
  private final List<LocalVariableNode> variables = new ArrayList<>();
  private final Map<AbstractInsnNode, LabelNode> entries = new IdentityHashMap<>();

  /** Apart from {@link #entries}: a method's first instruction may be a call, and both. */
  private final Map<AbstractInsnNode, LabelNode> entriesAfterCalls = new IdentityHashMap<>();

  private CodeCopy(
      InsnList list,
      boolean fast,
      Map<LabelNode, LabelNode> labels,
      Map<AbstractInsnNode, AbstractInsnNode> clones) {
    this.list = list;
    this.fast = fast;
    this.labels = labels;
    this.clones = clones;
  }

  /** The method's own instructions, which become the slow path. */
  static CodeCopy original(MethodNode method) {
    return new CodeCopy(method.instructions, false, null, null);
  }

  /**
   * A clone of the method's instructions, its exception handlers and local variable ranges, with
   * labels of its own; the fast path. Nothing is added to the method until {@link #appendTablesTo}.
   */
  static CodeCopy cloneOf(MethodNode method) {
    // Identity maps for ASM's nodes throughout: they do not override hashCode, and a HashMap would
    // put their classes into the receiver profile of the JDK's HashMap.hash, which the host's own
    // maps share (on JDK 25 that cost a String-keyed map its inlined hashCode).
    Map<LabelNode, LabelNode> labels = new IdentityHashMap<>();
    for (AbstractInsnNode insn : method.instructions) {
      if (insn instanceof LabelNode label) {
        labels.put(label, new LabelNode());
      }
    }
    InsnList list = new InsnList();
    Map<AbstractInsnNode, AbstractInsnNode> clones = new IdentityHashMap<>();
    for (AbstractInsnNode insn : method.instructions) {
      AbstractInsnNode clone = insn.clone(labels);
      list.add(clone);
      clones.put(insn, clone);
    }
    CodeCopy copy = new CodeCopy(list, true, labels, clones);
    for (TryCatchBlockNode tcb : method.tryCatchBlocks) {
      copy.handlers.add(
          new TryCatchBlockNode(
              labels.get(tcb.start), labels.get(tcb.end), labels.get(tcb.handler), tcb.type));
    }
    if (method.localVariables != null) {
      for (LocalVariableNode v : method.localVariables) {
        copy.variables.add(
            new LocalVariableNode(
                v.name, v.desc, v.signature, labels.get(v.start), labels.get(v.end), v.index));
      }
    }
    return copy;
  }

  /** This copy's instruction for an instruction of the original. */
  AbstractInsnNode at(AbstractInsnNode original) {
    return clones == null ? original : clones.get(original);
  }

  /** Frame types with each object under construction named by this copy's {@code new}. */
  List<Object> types(List<Object> types) {
    if (labels == null) {
      return types;
    }
    List<Object> out = new ArrayList<>(types.size());
    for (Object type : types) {
      out.add(type instanceof LabelNode label ? labels.get(label) : type);
    }
    return out;
  }

  /**
   * Adds a label where control may enter this copy, for the crossing before the original's
   * instruction {@code key}, or after it when {@code afterCall}.
   */
  void addEntry(AbstractInsnNode key, boolean afterCall) {
    (afterCall ? entriesAfterCalls : entries).put(key, new LabelNode());
  }

  /** The label where control enters this copy for a crossing added by {@link #addEntry}. */
  LabelNode entry(AbstractInsnNode key, boolean afterCall) {
    return (afterCall ? entriesAfterCalls : entries).get(key);
  }

  /** Adds a clone's exception handlers and local variable ranges to the method's own. */
  void appendTablesTo(MethodNode method) {
    method.tryCatchBlocks.addAll(handlers);
    if (method.localVariables != null) {
      method.localVariables.addAll(variables);
    }
  }
}
