package dev.whyslow.agent.transport;

/**
 * Receives the daemon's commands. Called on the transport thread, so implementations must be quick
 * and must not block; an exception thrown here is caught and counted, never propagated.
 */
public interface CommandListener {
  /** The daemon asks for one recorded predicate evaluation in {@code 1 / rate}. */
  void onSamplingRate(double rate);

  /** The kill switch: {@code false} turns every probe into a no-op. */
  void onEnabled(boolean enabled);

  /** A listener that ignores every command. */
  CommandListener NOOP =
      new CommandListener() {
        @Override
        public void onSamplingRate(double rate) {}

        @Override
        public void onEnabled(boolean enabled) {}
      };
}
