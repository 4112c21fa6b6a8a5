package dev.whyslow.daemon.config;

/**
 * Configuration that whyslowd refuses to start with. The message is meant for the operator: it
 * names the key, the value, where it came from and what is allowed.
 */
public final class ConfigException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  public ConfigException(String message) {
    super(message);
  }
}
