package dev.whyslow.protocol;

import java.util.List;

/** Finished runs, batched by size and time. */
public record RunBatch(List<Run> runs) implements Message {
  public RunBatch {
    runs = List.copyOf(runs);
  }
}
