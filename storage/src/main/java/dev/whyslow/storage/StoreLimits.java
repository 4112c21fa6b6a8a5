package dev.whyslow.storage;

import dev.whyslow.protocol.Run;
import dev.whyslow.protocol.UnitHistogram;
import dev.whyslow.protocol.UnitStats;
import dev.whyslow.protocol.Violation;
import java.nio.charset.StandardCharsets;

/**
 * What every store can hold, checked the same way by each implementation before anything of a batch
 * is written, so a bad run fails its whole batch with a message naming the value instead of being
 * half stored. The daemon may call these checks earlier to reject a frame at ingest.
 */
public final class StoreLimits {

  /** Service, instance and version names are length-prefixed with 16 bits in keys. */
  public static final int MAX_NAME_BYTES = 0xFFFF;

  private StoreLimits() {}

  /** Throws {@link IllegalArgumentException} if a service name cannot be part of a key. */
  public static void checkService(String service) {
    checkName("service", service);
  }

  /** Throws {@link IllegalArgumentException} if any name of the origin cannot be part of a key. */
  public static void checkOrigin(RunOrigin origin) {
    checkName("service", origin.service());
    checkName("instance", origin.instance());
    checkName("service version", origin.serviceVersion());
  }

  /**
   * Throws {@link IllegalArgumentException} if the run cannot be stored: its start time must fit in
   * a run id ({@link RunIds#MAX_EPOCH_MILLIS}).
   */
  public static void checkRun(RunOrigin origin, Run run) {
    long start = run.startEpochMillis();
    if (start < 0 || start > RunIds.MAX_EPOCH_MILLIS) {
      throw new IllegalArgumentException(
          "run #"
              + run.sequence()
              + " from "
              + origin.service()
              + "/"
              + origin.instance()
              + " starts at "
              + start
              + " ms since the epoch, outside the storable range [0, "
              + RunIds.MAX_EPOCH_MILLIS
              + "]; check the clock of that instance. Nothing of this batch was stored.");
    }
  }

  /** Throws {@link IllegalArgumentException} if a unit type name cannot be part of a key. */
  public static void checkUnitType(String unitType) {
    checkName("unit type", unitType);
  }

  /**
   * Throws {@link IllegalArgumentException} if unit statistics cannot be stored: the interval start
   * must be a storable time and every unit type name must fit in a key.
   */
  public static void checkUnitStats(RunOrigin origin, UnitStats stats) {
    checkTime(origin, "unit statistics interval", stats.intervalStartEpochMillis());
    for (UnitHistogram h : stats.histograms()) {
      checkUnitType(h.unitType());
    }
  }

  /** Throws {@link IllegalArgumentException} if a violation's detection time cannot be an id. */
  public static void checkViolation(RunOrigin origin, Violation violation) {
    checkTime(origin, "violation detected", violation.detectedEpochMillis());
    checkUnitType(violation.unitType());
  }

  private static void checkTime(RunOrigin origin, String what, long millis) {
    if (millis < 0 || millis > RunIds.MAX_EPOCH_MILLIS) {
      throw new IllegalArgumentException(
          what
              + " at "
              + millis
              + " ms since the epoch from "
              + origin.service()
              + "/"
              + origin.instance()
              + " is outside the storable range [0, "
              + RunIds.MAX_EPOCH_MILLIS
              + "]; check the clock of that instance. Nothing of this batch was stored.");
    }
  }

  private static void checkName(String what, String value) {
    // UTF-8 is at most 3 bytes per char for BMP and 4 per surrogate pair (2 chars).
    if (value.length() * 3L <= MAX_NAME_BYTES) {
      return;
    }
    int bytes = value.getBytes(StandardCharsets.UTF_8).length;
    if (bytes > MAX_NAME_BYTES) {
      throw new IllegalArgumentException(
          what
              + " name is "
              + bytes
              + " bytes of UTF-8 (starting '"
              + value.substring(0, Math.min(40, value.length()))
              + "…'), longer than the "
              + MAX_NAME_BYTES
              + " bytes a store key can hold; configure a shorter name.");
    }
  }
}
