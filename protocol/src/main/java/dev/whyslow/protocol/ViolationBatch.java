package dev.whyslow.protocol;

import java.util.List;

/** Agent to daemon: threshold violations, batched like runs. */
public record ViolationBatch(List<Violation> violations) implements Message {
  public ViolationBatch {
    violations = List.copyOf(violations);
  }
}
