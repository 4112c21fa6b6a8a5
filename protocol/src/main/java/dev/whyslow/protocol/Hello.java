package dev.whyslow.protocol;

import java.util.Objects;

/**
 * The agent's first frame on every connection.
 *
 * @param protocolVersion {@link MessageCodec#PROTOCOL_VERSION} of the agent
 * @param service logical service name, e.g. {@code checkout}
 * @param instance this JVM, e.g. {@code host-1:4242}
 * @param serviceVersion the deployed version of the service, for comparison-based labelling
 * @param agentVersion the agent's own version
 * @param token shared secret the daemon checks; {@code ""} when the daemon runs without one
 */
public record Hello(
    int protocolVersion,
    String service,
    String instance,
    String serviceVersion,
    String agentVersion,
    String token)
    implements Message {

  public Hello {
    Objects.requireNonNull(service, "service");
    Objects.requireNonNull(instance, "instance");
    Objects.requireNonNull(serviceVersion, "serviceVersion");
    Objects.requireNonNull(agentVersion, "agentVersion");
    Objects.requireNonNull(token, "token");
  }

  @Override
  public String toString() {
    // Never print the token.
    return "Hello[protocol="
        + protocolVersion
        + ", service="
        + service
        + ", instance="
        + instance
        + ", version="
        + serviceVersion
        + ", agent="
        + agentVersion
        + "]";
  }
}
