package dev.whyslow.protocol;

import java.util.List;
import java.util.Objects;

/**
 * One unit found over its unit type's threshold: reported once per unit, with the stack of the
 * thread at the moment it was caught.
 *
 * @param unitStartEpochMillis wall-clock start of the unit
 * @param detectedEpochMillis when the agent caught it
 * @param unitType the inferred unit type
 * @param elapsedNanos how long the unit had run when caught, waiting time excluded
 * @param thresholdNanos the threshold it was over
 * @param cause guard, unit end or watchdog
 * @param thread the name of the thread running the unit
 * @param stack the thread's frames at detection, innermost first, each as {@code
 *     class.method(File:line)}; at most {@link #MAX_FRAMES}
 * @param runSequence the sequence of the unit's {@link Run}, or 0 when no run was sent for it
 */
public record Violation(
    long unitStartEpochMillis,
    long detectedEpochMillis,
    String unitType,
    long elapsedNanos,
    long thresholdNanos,
    ViolationCause cause,
    String thread,
    List<String> stack,
    long runSequence) {

  /** The deepest stack a violation carries; deeper stacks keep their innermost frames. */
  public static final int MAX_FRAMES = 128;

  public Violation {
    Objects.requireNonNull(unitType, "unitType");
    Objects.requireNonNull(cause, "cause");
    Objects.requireNonNull(thread, "thread");
    stack = List.copyOf(stack);
    if (stack.size() > MAX_FRAMES) {
      throw new IllegalArgumentException(
          "a violation carries at most " + MAX_FRAMES + " frames, not " + stack.size());
    }
    if (elapsedNanos < 0 || thresholdNanos < 0) {
      throw new IllegalArgumentException(
          "elapsed and threshold must be >= 0 ns, were " + elapsedNanos + " and " + thresholdNanos);
    }
  }
}
