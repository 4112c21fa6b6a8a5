package dev.whyslow.protocol;

/**
 * The agent's own counters since it started, sent periodically so the daemon can export them and an
 * operator can see what the agent costs and what it dropped.
 *
 * @param timestampEpochMillis when the counters were read
 * @param samplesRecorded predicate evaluations the sampler recorded
 * @param sitesRegistered probe sites the agent knows
 * @param classesInstrumented classes transformed
 * @param instrumentationErrors classes the agent tried to transform and skipped
 * @param runsRecorded runs finished
 * @param runsSent runs written to the daemon
 * @param runsDropped runs dropped because the queue was full or the daemon unreachable
 * @param agentErrors exceptions caught inside the agent
 * @param reconnects connection attempts after the first
 * @param bytesSent bytes written to the daemon
 */
public record AgentStats(
    long timestampEpochMillis,
    long samplesRecorded,
    long sitesRegistered,
    long classesInstrumented,
    long instrumentationErrors,
    long runsRecorded,
    long runsSent,
    long runsDropped,
    long agentErrors,
    long reconnects,
    long bytesSent)
    implements Message {}
