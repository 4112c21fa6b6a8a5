package dev.whyslow.agent.bootstrap;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * One thread's unit of work, reused for every unit that thread runs so that starting and ending a
 * unit allocates nothing. Only the owning thread writes it, except {@link #claim}, which the
 * watchdog may also set (once per unit) when it finds the unit over its threshold.
 */
public final class UnitState {
  /** How a unit started: an entry point's body, a wait loop's iteration, or a declared unit. */
  public static final int ENTRY = 0;

  public static final int LOOP = 1;
  public static final int DECLARED = 2;

  private static final VarHandle CLAIM;

  static {
    try {
      CLAIM = MethodHandles.lookup().findVarHandle(UnitState.class, "claim", long.class);
    } catch (ReflectiveOperationException e) {
      throw new ExceptionInInitializerError(e);
    }
  }

  final Thread thread;

  /**
   * Open entry-point bodies (wrappers begin and end in pairs); the unit ends when it drops to 0.
   */
  int nest;

  boolean active;
  int kind;
  String entryPoint;
  UnitType entryType;

  /** The type the guards inferred so far, or {@code null}: then the entry point's type. */
  volatile UnitType bestType;

  /**
   * Whether every frame of the unit counts its depth; if not, only its guards' frames do, and a
   * guard's relative depth means nothing ({@code Units.countDepthOnlyWhereNeeded}).
   */
  boolean everyFrame = true;

  /** The depth of the unit's entry frame; a callee of it is at relative depth 1. */
  int baseDepth;

  long startNanos;
  long startEpochMillis;

  /** This thread's unit counter; the current unit's number while it runs. */
  long unitSeq;

  /**
   * {@code unitSeq} while the unit runs unclaimed, {@code -runSequence} once a violation was
   * claimed for it, 0 between units. Claims are compare-and-set from the unit's own number, so a
   * late claim by the watchdog can never hit the next unit.
   */
  @SuppressWarnings("unused") // accessed through CLAIM
  private volatile long claim;

  final UnitRunCounts counts = new UnitRunCounts();
  RunCounts savedRun;

  /** The model this unit's guards use, taken when it started; {@code null} before training. */
  UnitModel model;

  /** Hits of this unit's guards; created at the first guard, reset per unit. */
  TypeInference inference;

  /** The model {@link #inference} was sized for. */
  UnitModel inferenceModel;

  // ---- call tracing, for training and audit ----
  boolean tracing;
  int[] traceIds;
  int[] traceDepths;
  int traceLength;
  boolean traceOverflow;

  UnitState(Thread thread) {
    this.thread = thread;
  }

  public Thread thread() {
    return thread;
  }

  public int kind() {
    return kind;
  }

  public String entryPoint() {
    return entryPoint;
  }

  public UnitType entryType() {
    return entryType;
  }

  /** The type the unit counts as now: the inferred one, else the entry point's. */
  public UnitType currentType() {
    UnitType best = bestType;
    return best != null ? best : entryType;
  }

  public long startNanos() {
    return startNanos;
  }

  public long startEpochMillis() {
    return startEpochMillis;
  }

  /** The counters of the unit's sampled evaluations. */
  public UnitRunCounts counts() {
    return counts;
  }

  /** The traced method ids (pre-order entries), valid up to {@link #traceLength()}. */
  public int[] traceIds() {
    return traceIds;
  }

  public int[] traceDepths() {
    return traceDepths;
  }

  public int traceLength() {
    return traceLength;
  }

  /** Whether the trace buffer filled up and later entries were lost. */
  public boolean traceOverflowed() {
    return traceOverflow;
  }

  public boolean isTracing() {
    return tracing;
  }

  /** The running unit's number, or 0 when none runs or a violation was already claimed. */
  public long unclaimedUnit() {
    long c = (long) CLAIM.getVolatile(this);
    return c > 0 ? c : 0;
  }

  /**
   * Claims the violation of unit {@code unit} (see {@link #unclaimedUnit}) for run sequence {@code
   * runSequence}; false if the unit ended or someone claimed it first.
   */
  public boolean claim(long unit, long runSequence) {
    return unit > 0 && CLAIM.compareAndSet(this, unit, -runSequence);
  }

  /** The run sequence a violation claimed for the current unit, or 0. */
  public long claimedRunSequence() {
    long c = (long) CLAIM.getVolatile(this);
    return c < 0 ? -c : 0;
  }

  void publish(long unit) {
    CLAIM.setVolatile(this, unit);
  }

  /**
   * The watched bits of this unit's method entries, for {@link ThreadState#watch}: {@code null}
   * (all) when it is traced, else its model's guards.
   */
  long[] watchedEntries() {
    if (tracing) {
      return null;
    }
    return model == null ? ContextTable.EMPTY.guardBits() : model.table.guardBits();
  }

  /** Appends one method entry to the trace; drops it (and remembers so) when the buffer is full. */
  void trace(int methodId, int relativeDepth) {
    int n = traceLength;
    int[] ids = traceIds;
    if (n == ids.length) {
      traceOverflow = true;
      return;
    }
    ids[n] = methodId;
    traceDepths[n] = relativeDepth;
    traceLength = n + 1;
  }
}
