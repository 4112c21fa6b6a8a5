/**
 * What instrumented code calls: the probes, the per-thread sampler state and the run counters, and
 * the units of work ({@link dev.whyslow.agent.bootstrap.Units}: depth count, unit begin and end,
 * guards; {@link dev.whyslow.agent.bootstrap.Whyslow}: the application's API). These classes are
 * defined in the bootstrap class loader (from the nested {@code whyslow-bootstrap.jar}) so that
 * code in every class loader, {@code java.*} included, resolves them; they depend on the JDK only
 * and avoid lambdas, streams and string concatenation.
 */
package dev.whyslow.agent.bootstrap;
