package dev.whyslow.daemon.agent;

import dev.whyslow.storage.RunOrigin;
import java.time.Instant;

/**
 * An agent connection that completed the handshake: who it is, from where, since when.
 *
 * @param connectionId daemon-unique id of the connection, shown by the API
 */
public record ConnectedAgent(
    String connectionId,
    RunOrigin origin,
    String agentVersion,
    String remoteAddress,
    Instant connectedAt) {

  public String service() {
    return origin.service();
  }
}
