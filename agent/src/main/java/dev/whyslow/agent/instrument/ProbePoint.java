package dev.whyslow.agent.instrument;

import dev.whyslow.protocol.Site;
import org.objectweb.asm.tree.AbstractInsnNode;
import org.objectweb.asm.tree.IincInsnNode;

/**
 * Where one probe goes: before {@code insn}, with a copy of its one- or two-slot operand(s), and
 * for a scalar pair the compared local after it, for the probe method {@code probe} whose sampled
 * path has descriptor {@code descriptor} ({@code SampledProbes}; the method the site calls is in
 * {@code CheckedProbes}, see {@link #checkedDescriptor}). Before an {@code iinc} the "copy" is the
 * new value, computed.
 *
 * @param twoSlots whether the copied operands take two stack slots ({@code DUP2}: two ints or
 *     references, or one long or double); for a scalar pair, whether the values are longs
 * @param partner the local loaded after the copy (a scalar pair's old value or other local), or
 *     {@link #NO_PARTNER}
 */
record ProbePoint(
    AbstractInsnNode insn,
    Site site,
    String probe,
    String descriptor,
    boolean twoSlots,
    int partner) {
  static final int NO_PARTNER = -1;

  /** A branch or return probe: only copies of the instruction's operands. */
  ProbePoint(AbstractInsnNode insn, Site site, String probe, String descriptor, boolean twoSlots) {
    this(insn, site, probe, descriptor, twoSlots, NO_PARTNER);
  }

  /**
   * Stack slots the probe's arguments take above what the instruction had: values, state, slot and
   * countdown.
   */
  int extraStack() {
    int value = twoSlots ? 2 : 1;
    if (insn instanceof IincInsnNode) {
      return value + value + 3; // new value computed as old + increment, then the partner
    }
    return value + (partner == NO_PARTNER ? 0 : value) + 3;
  }

  /**
   * The descriptor of the {@code CheckedProbes} method: the sampled path's, which ends with the
   * state and the slot, with the countdown after them.
   */
  String checkedDescriptor() {
    int close = descriptor.indexOf(')');
    return descriptor.substring(0, close) + "I" + descriptor.substring(close);
  }
}
