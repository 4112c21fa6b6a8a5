package dev.whyslow.storage;

import dev.whyslow.protocol.Violation;
import java.util.Objects;

/**
 * A violation as stored: what the agent caught, which JVM caught it, and a daemon-wide id that
 * orders violations by detection time ({@link ViolationIds}).
 */
public record StoredViolation(long violationId, RunOrigin origin, Violation violation) {
  public StoredViolation {
    Objects.requireNonNull(origin, "origin");
    Objects.requireNonNull(violation, "violation");
  }
}
