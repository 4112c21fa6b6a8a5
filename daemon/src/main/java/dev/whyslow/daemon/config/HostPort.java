package dev.whyslow.daemon.config;

import java.net.InetSocketAddress;

/**
 * A bind address such as {@code 127.0.0.1:9720} or {@code [::1]:9721}. Port 0 asks the operating
 * system for a free port, which tests use.
 */
public record HostPort(String host, int port) {

  public HostPort {
    if (host.isEmpty()) {
      throw new IllegalArgumentException("host is empty; use 127.0.0.1 for loopback or 0.0.0.0");
    }
    if (port < 0 || port > 65535) {
      throw new IllegalArgumentException("port " + port + " is outside 0-65535");
    }
  }

  /** Parses {@code host:port}; IPv6 hosts go in brackets. */
  public static HostPort parse(String text) {
    int colon = text.lastIndexOf(':');
    if (colon <= 0 || colon == text.length() - 1) {
      throw new IllegalArgumentException("expected host:port, e.g. 127.0.0.1:9720");
    }
    String host = text.substring(0, colon);
    if (host.startsWith("[") && host.endsWith("]")) {
      host = host.substring(1, host.length() - 1);
    } else if (host.contains(":")) {
      throw new IllegalArgumentException("put an IPv6 host in brackets, e.g. [::1]:9720");
    }
    String portText = text.substring(colon + 1);
    int port;
    try {
      port = Integer.parseInt(portText);
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("port '" + portText + "' is not a number in 0-65535", e);
    }
    return new HostPort(host, port);
  }

  public InetSocketAddress toSocketAddress() {
    return new InetSocketAddress(host, port);
  }

  @Override
  public String toString() {
    return (host.contains(":") ? "[" + host + "]" : host) + ":" + port;
  }
}
