/**
 * Bytecode instrumentation with ASM's tree API: the transformer, the scope, per-method probe
 * planning (control-flow graph, dominators, natural loops) and the rewriting that inserts probes:
 * an inline decrement of a local countdown per site, with a call only on the sampled path.
 */
package dev.whyslow.agent.instrument;
