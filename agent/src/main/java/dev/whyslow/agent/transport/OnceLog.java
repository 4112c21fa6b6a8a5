package dev.whyslow.agent.transport;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;

/**
 * Prints each kind of problem once, prefixed {@code [whyslow]}, so a daemon that stays down for a
 * day costs the host one line rather than a flood. Keys name the kind of problem and come from a
 * small fixed set, so the memory of what was said stays bounded.
 */
final class OnceLog {
  static final String PREFIX = "[whyslow] ";

  private final Consumer<String> sink;
  private final Set<String> reported = ConcurrentHashMap.newKeySet();

  OnceLog(Consumer<String> sink) {
    this.sink = sink;
  }

  static OnceLog stderr() {
    return new OnceLog(line -> System.err.println(line));
  }

  /** Prints {@code message} unless something was already printed under {@code key}. */
  boolean report(String key, String message) {
    if (!reported.add(key)) {
      return false;
    }
    always(message);
    return true;
  }

  /** Prints {@code message} unconditionally; for the one summary line at shutdown. */
  void always(String message) {
    try {
      sink.accept(PREFIX + message);
    } catch (Throwable ignored) {
      // A broken stderr must not break the transport.
    }
  }
}
