package dev.whyslow.agent.transport;

import dev.whyslow.protocol.ErrorMessage;
import dev.whyslow.protocol.HelloOk;

/** What the connection's handlers tell whoever decides when to reconnect. Called on the loop. */
interface ConnectionEvents {
  /** The daemon accepted the handshake: the next outage starts from the initial backoff. */
  void onHandshake(HelloOk ok);

  /** The daemon refused us for a reason retrying soon cannot fix (bad token, wrong version). */
  void onRefused(ErrorMessage error);

  ConnectionEvents NOOP =
      new ConnectionEvents() {
        @Override
        public void onHandshake(HelloOk ok) {}

        @Override
        public void onRefused(ErrorMessage error) {}
      };
}
