package dev.whyslow.protocol;

/** A run is either one unit of work or a whole JVM. */
public enum RunKind {
  /** The whole process: batch jobs, tests, in-house diagnosis with good and bad inputs. */
  PROCESS(0),
  /** One execution of a unit of work (a request, a task, one loop iteration). */
  UNIT(1);

  private final int code;

  RunKind(int code) {
    this.code = code;
  }

  public int code() {
    return code;
  }

  public static RunKind fromCode(int code) {
    for (RunKind kind : values()) {
      if (kind.code == code) {
        return kind;
      }
    }
    throw new IllegalArgumentException("unknown run kind code " + code);
  }
}
