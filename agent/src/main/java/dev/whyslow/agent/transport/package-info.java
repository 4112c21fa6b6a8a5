/**
 * The agent's Netty client for {@code whyslowd}. {@link dev.whyslow.agent.transport.AgentTransport}
 * is the whole API: start it, announce sites, offer finished runs, and flush and close it at
 * shutdown. Everything else here is package-private: one handler per concern assembled by {@code
 * TransportInitializer}, the bounded {@code Outbox}, the reconnecting {@code Connector}.
 */
package dev.whyslow.agent.transport;
