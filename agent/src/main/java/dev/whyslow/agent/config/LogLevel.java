package dev.whyslow.agent.config;

/** How much the agent writes to stderr: warnings only, a start and exit line, or details. */
public enum LogLevel {
  WARN,
  INFO,
  DEBUG;

  public boolean shows(LogLevel level) {
    return level.ordinal() <= ordinal();
  }
}
