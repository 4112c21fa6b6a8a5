package dev.whyslow.protocol;

/** Daemon to agent: record one predicate evaluation in {@code 1 / rate} from now on. */
public record SetSamplingRate(double rate) implements Message {
  public SetSamplingRate {
    if (!(rate >= MIN_RATE && rate <= 1)) {
      throw new IllegalArgumentException(
          "sampling rate must be in [" + MIN_RATE + ", 1], was " + rate);
    }
  }

  /** One in a million: the lowest rate the agent accepts. */
  public static final double MIN_RATE = 1e-6;
}
