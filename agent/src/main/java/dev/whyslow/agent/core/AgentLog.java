package dev.whyslow.agent.core;

import dev.whyslow.agent.config.LogLevel;
import java.io.PrintStream;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The agent's few lines on stderr, each prefixed {@code [whyslow]}. Warnings always show; {@code
 * once} messages show the first time only, so a recurring problem cannot flood the service's log.
 */
public final class AgentLog {
  private final LogLevel level;
  private final PrintStream out;
  private final Set<String> onceKeys = ConcurrentHashMap.newKeySet();

  public AgentLog(LogLevel level) {
    this(level, System.err);
  }

  AgentLog(LogLevel level, PrintStream out) {
    this.level = level;
    this.out = out;
  }

  public void warn(String message) {
    print(message);
  }

  /** A warning shown the first time {@code key} is seen (always, at debug level). */
  public void warnOnce(String key, String message) {
    if (onceKeys.add(key) || level.shows(LogLevel.DEBUG)) {
      print(message);
    }
  }

  public void info(String message) {
    if (level.shows(LogLevel.INFO)) {
      print(message);
    }
  }

  public void debug(String message) {
    if (level.shows(LogLevel.DEBUG)) {
      print(message);
    }
  }

  /** Whether {@link #info} prints: a message that costs something to make is made only then. */
  public boolean isInfo() {
    return level.shows(LogLevel.INFO);
  }

  public boolean isDebug() {
    return level.shows(LogLevel.DEBUG);
  }

  private void print(String message) {
    try {
      out.println("[whyslow] " + message);
    } catch (RuntimeException ignored) {
      // stderr closed: nothing useful left to do
    }
  }
}
