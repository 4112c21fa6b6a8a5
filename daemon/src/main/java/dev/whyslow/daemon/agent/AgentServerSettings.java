package dev.whyslow.daemon.agent;

/**
 * What the agent pipeline needs from the configuration.
 *
 * @param token the agent token, {@code ""} for none
 */
public record AgentServerSettings(
    String token, String daemonVersion, int maxFrameBytes, int maxConnections) {

  @Override
  public String toString() {
    return "AgentServerSettings[token="
        + (token.isEmpty() ? "(none)" : "(set)")
        + ", daemonVersion="
        + daemonVersion
        + ", maxFrameBytes="
        + maxFrameBytes
        + ", maxConnections="
        + maxConnections
        + "]";
  }
}
