package dev.whyslow.protocol;

/** Where a unit was found over its threshold. */
public enum ViolationCause {
  /** At a guard inside the unit, while it was still running. */
  GUARD(1),
  /** When the unit ended, having passed no guard after it crossed the threshold. */
  UNIT_END(2),
  /** By the agent's watchdog, for a unit still running and reaching no guard. */
  WATCHDOG(3);

  private final int code;

  ViolationCause(int code) {
    this.code = code;
  }

  public int code() {
    return code;
  }

  public static ViolationCause fromCode(int code) {
    for (ViolationCause cause : values()) {
      if (cause.code == code) {
        return cause;
      }
    }
    throw new IllegalArgumentException("unknown violation cause code " + code);
  }

  /** The spelling used in the API and the command line: {@code guard}, {@code unit-end}, ... */
  public String spelling() {
    return name().toLowerCase(java.util.Locale.ROOT).replace('_', '-');
  }
}
