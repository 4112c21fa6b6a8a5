package dev.whyslow.protocol;

import java.util.List;
import java.util.Objects;

/**
 * One run as the agent reports it: what the sampler saw during one unit of work or one whole
 * process. Service, instance and version come from the connection's {@link Hello}.
 *
 * @param sequence per-JVM sequence number assigned by the agent, starting at 1
 * @param kind process or unit run
 * @param startEpochMillis wall-clock start
 * @param durationNanos how long the run took, waiting time excluded
 * @param label the label the agent knows (configuration, application API or guard); may be changed
 *     later through the daemon's API
 * @param unitType unit type name, or {@code ""} for a process run
 * @param samplingRate the probability with which one predicate evaluation was recorded, in (0, 1]
 * @param sites per-site counts, each site at most once
 */
public record Run(
    long sequence,
    RunKind kind,
    long startEpochMillis,
    long durationNanos,
    Label label,
    String unitType,
    double samplingRate,
    List<SiteCounts> sites) {

  public Run {
    Objects.requireNonNull(kind, "kind");
    Objects.requireNonNull(label, "label");
    Objects.requireNonNull(unitType, "unitType");
    sites = List.copyOf(sites);
    if (!(samplingRate > 0 && samplingRate <= 1)) {
      throw new IllegalArgumentException("sampling rate must be in (0, 1], was " + samplingRate);
    }
    if (durationNanos < 0) {
      throw new IllegalArgumentException("duration must be >= 0 ns, was " + durationNanos);
    }
  }
}
