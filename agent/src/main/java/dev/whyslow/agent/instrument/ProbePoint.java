package dev.whyslow.agent.instrument;

import dev.whyslow.protocol.Site;
import org.objectweb.asm.tree.AbstractInsnNode;

/**
 * Where one probe goes: before {@code insn}, copying its one- or two-slot operand(s) for the probe
 * method {@code probe} with descriptor {@code descriptor}.
 *
 * @param twoSlots whether the operands take two stack slots ({@code DUP2}: two ints or references,
 *     or one long or double)
 */
record ProbePoint(
    AbstractInsnNode insn, Site site, String probe, String descriptor, boolean twoSlots) {}
