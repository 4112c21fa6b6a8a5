package dev.whyslow.agent.bootstrap;

/**
 * The entry of every depth-counted method: one more frame on this thread, and a call to {@code
 * Units.entered} only where the running unit watches the method ({@link ThreadState#watched0}).
 * Returns the frame's depth, which the method keeps in a local to restore at returns, throws and
 * handlers.
 *
 * <p>One method per word of the watched bits, chosen at transform time from the method id ({@code
 * id / 64 % 4}, {@link #nameFor}), so that each reads one field and stays within what C1 inlines:
 * 35 bytes, and fewer slots of stack and locals besides the arguments than {@code
 * C1InlineStackLimit} (5 on JDK 17; hence the bit shifted down and tested as an int, which needs
 * three slots where a long mask needs five). A single method choosing the word at run time is 63
 * bytes, which C1 calls instead of inlining: a call at every entry of a copy that runs in C1's
 * code, as the copies of per-request methods do for minutes.
 */
public final class UnitEntries {
  private UnitEntries() {}

  /** The entry method for {@code methodId}, one of {@code enter0} to {@code enter3}. */
  public static String nameFor(int methodId) {
    return "enter" + ((methodId >>> 6) & 3);
  }

  /** For a method whose watched bit is in {@link ThreadState#watched0}. */
  public static int enter0(ThreadState s, int methodId) {
    int d = s.depth + 1;
    s.depth = d;
    if (((int) (s.watched0 >>> methodId) & 1) != 0) { // the shift takes methodId % 64
      Units.entered(s, methodId, d);
    }
    return d;
  }

  /** For a method whose watched bit is in {@link ThreadState#watched1}. */
  public static int enter1(ThreadState s, int methodId) {
    int d = s.depth + 1;
    s.depth = d;
    if (((int) (s.watched1 >>> methodId) & 1) != 0) {
      Units.entered(s, methodId, d);
    }
    return d;
  }

  /** For a method whose watched bit is in {@link ThreadState#watched2}. */
  public static int enter2(ThreadState s, int methodId) {
    int d = s.depth + 1;
    s.depth = d;
    if (((int) (s.watched2 >>> methodId) & 1) != 0) {
      Units.entered(s, methodId, d);
    }
    return d;
  }

  /** For a method whose watched bit is in {@link ThreadState#watched3}. */
  public static int enter3(ThreadState s, int methodId) {
    int d = s.depth + 1;
    s.depth = d;
    if (((int) (s.watched3 >>> methodId) & 1) != 0) {
      Units.entered(s, methodId, d);
    }
    return d;
  }
}
