package dev.whyslow.protocol;

import java.util.List;

/** Agent to daemon: the unit types one JVM knows, sent after each training. */
public record UnitTypeBatch(List<UnitTypeInfo> types) implements Message {
  public UnitTypeBatch {
    types = List.copyOf(types);
  }
}
