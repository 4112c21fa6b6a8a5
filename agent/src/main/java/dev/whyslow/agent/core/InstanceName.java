package dev.whyslow.agent.core;

import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The default instance name, {@code host:pid}. Resolved off the application's start-up path, since
 * asking the resolver for the local host name can block for seconds on a badly configured host.
 */
final class InstanceName {
  private InstanceName() {}

  static String resolve() {
    return hostName() + ":" + ProcessHandle.current().pid();
  }

  private static String hostName() {
    for (String var : new String[] {"HOSTNAME", "COMPUTERNAME"}) {
      String v = System.getenv(var);
      if (v != null && !v.isBlank()) {
        return v.trim();
      }
    }
    try {
      Path etc = Path.of("/etc/hostname");
      if (Files.isReadable(etc)) {
        String v = Files.readString(etc, StandardCharsets.UTF_8).trim();
        if (!v.isEmpty()) {
          return v;
        }
      }
    } catch (Exception ignored) {
      // fall through to the resolver
    }
    try {
      return InetAddress.getLocalHost().getHostName();
    } catch (Exception e) {
      return "unknown-host";
    }
  }
}
