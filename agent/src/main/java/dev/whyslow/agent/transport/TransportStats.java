package dev.whyslow.agent.transport;

/**
 * A snapshot of the transport's counters since it was created, so an operator can see what reached
 * the daemon and what did not.
 *
 * @param runsSent runs in batches the socket accepted
 * @param runsDropped runs lost: queue full, transport closed, write failed, or still queued when
 *     {@link AgentTransport#flushAndClose} gave up
 * @param reconnects connection attempts after the first
 * @param bytesSent bytes written to the socket, length prefixes included
 * @param errors exceptions caught inside the transport (listener, stats supplier, protocol errors)
 * @param queuedRuns runs waiting to be sent right now
 * @param connected whether the handshake with the daemon has completed on a live connection
 * @param lastError the last problem seen, for people, or {@code ""}
 */
public record TransportStats(
    long runsSent,
    long runsDropped,
    long reconnects,
    long bytesSent,
    long errors,
    int queuedRuns,
    boolean connected,
    String lastError) {}
