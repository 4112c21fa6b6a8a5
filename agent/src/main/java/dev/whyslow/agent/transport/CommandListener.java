package dev.whyslow.agent.transport;

import dev.whyslow.protocol.Threshold;
import java.util.List;

/**
 * Receives the daemon's commands. Called on the transport thread, so implementations must be quick
 * and must not block; an exception thrown here is caught and counted, never propagated.
 */
public interface CommandListener {
  /** The daemon asks for one recorded predicate evaluation in {@code 1 / rate}. */
  void onSamplingRate(double rate);

  /** The kill switch: {@code false} turns every probe into a no-op. */
  void onEnabled(boolean enabled);

  /** The thresholds of the agent's service, replacing the previous set. */
  default void onThresholds(List<Threshold> thresholds) {}

  /** A listener that ignores every command. */
  CommandListener NOOP =
      new CommandListener() {
        @Override
        public void onSamplingRate(double rate) {}

        @Override
        public void onEnabled(boolean enabled) {}
      };
}
