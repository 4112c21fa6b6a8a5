package dev.whyslow.storage;

import dev.whyslow.protocol.Label;
import dev.whyslow.protocol.Run;

/**
 * A run as stored: the agent's run, where it came from, and a daemon-wide id. The id orders runs by
 * start time ({@link RunIds}), so a time window is a key range.
 */
public record StoredRun(long runId, RunOrigin origin, Run run) {

  public Label label() {
    return run.label();
  }

  public StoredRun withLabel(Label label) {
    Run r = run;
    return new StoredRun(
        runId,
        origin,
        new Run(
            r.sequence(),
            r.kind(),
            r.startEpochMillis(),
            r.durationNanos(),
            label,
            r.unitType(),
            r.samplingRate(),
            r.sites()));
  }
}
