/**
 * Bytecode instrumentation with ASM's tree API: the transformer, the scope, per-method probe
 * planning (control-flow graph, dominators, natural loops) and the rewriting that inserts probe
 * calls without changing any control flow.
 */
package dev.whyslow.agent.instrument;
