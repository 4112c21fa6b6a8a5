package dev.whyslow.storage;

import dev.whyslow.protocol.Hello;
import java.util.Objects;

/** Which JVM a run came from, as named in the agent's handshake. */
public record RunOrigin(String service, String instance, String serviceVersion) {
  public RunOrigin {
    Objects.requireNonNull(service, "service");
    Objects.requireNonNull(instance, "instance");
    Objects.requireNonNull(serviceVersion, "serviceVersion");
  }

  public static RunOrigin of(Hello hello) {
    return new RunOrigin(hello.service(), hello.instance(), hello.serviceVersion());
  }
}
