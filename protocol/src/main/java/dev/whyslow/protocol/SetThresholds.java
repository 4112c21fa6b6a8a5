package dev.whyslow.protocol;

import java.util.List;

/**
 * Daemon to agent: the current thresholds of the agent's service. The list replaces the previous
 * one; a unit type not in it has no trusted threshold yet, and its units are neither violations nor
 * labelled.
 */
public record SetThresholds(List<Threshold> thresholds) implements Message {
  public SetThresholds {
    thresholds = List.copyOf(thresholds);
  }
}
