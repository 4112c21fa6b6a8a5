package dev.whyslow.protocol;

/** How the statistics treat a run: as a good run, a bad run, or not at all. */
public enum Label {
  DO_NOT_CARE(0),
  SUCCESS(1),
  FAILURE(2);

  private final int code;

  Label(int code) {
    this.code = code;
  }

  public int code() {
    return code;
  }

  public static Label fromCode(int code) {
    for (Label label : values()) {
      if (label.code == code) {
        return label;
      }
    }
    throw new IllegalArgumentException("unknown label code " + code);
  }

  /** Parses {@code success}, {@code failure} or {@code do-not-care} (also {@code do_not_care}). */
  public static Label parse(String text) {
    String normal = text.trim().toLowerCase(java.util.Locale.ROOT).replace('_', '-');
    switch (normal) {
      case "success":
        return SUCCESS;
      case "failure":
        return FAILURE;
      case "do-not-care":
      case "dont-care":
        return DO_NOT_CARE;
      default:
        throw new IllegalArgumentException(
            "unknown label '" + text + "': use success, failure or do-not-care");
    }
  }

  /** The spelling used in configuration, the API and the command line. */
  public String spelling() {
    return name().toLowerCase(java.util.Locale.ROOT).replace('_', '-');
  }
}
