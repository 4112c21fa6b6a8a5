package dev.whyslow.agent.bootstrap;

/**
 * Finds the calling thread's {@link ThreadState}, once per instrumented method invocation, so it
 * must cost less than a {@link ThreadLocal} lookup. A direct-mapped table indexed by thread id
 * answers most lookups with a few loads; the {@code ThreadLocal} stays the owner of each state and
 * answers when the table slot holds another thread's.
 *
 * <p>A slot is claimed by whichever thread looked up last through the slow path, so two busy
 * threads whose ids collide take turns in the slow path but never share a state: a slot's state is
 * used only by the thread whose id it carries (HotSpot never reuses a thread id). The table holds
 * ids, not threads, so it keeps no dead thread (nor its context class loader) alive; it does keep
 * up to {@link #SLOTS} states of dead threads until their slots are claimed again, which bounds
 * what it holds.
 *
 * <p>The lookup is plain loads only: no weak reference (whose read G1 guards with a barrier) and no
 * volatile read, which leaves C2 free to share one lookup between a method and the instrumented
 * methods it inlines (with it, CpuWorkload and OrderWorkload ran some 3 points faster in-process;
 * bench/README.md). A rate change or the kill switch empties the table instead ({@link
 * #forgetAll}), so each thread's next lookup takes the slow path and resynchronises.
 */
final class ThreadStates {
  /** Slots in the table: thread ids are dense, so this covers the first thousands of threads. */
  static final int SLOTS = 4096;

  /**
   * What an empty slot holds instead of {@code null}, so that a lookup has one test to make, not
   * two: with it the lookup stays within the 35 bytes that C1, and C2 at a call site that is not
   * hot, inline, where the null test took it to 40.
   */
  private static final ThreadState NOBODY = ThreadState.nobody();

  private static final ThreadState[] BY_ID = emptyTable();

  private static final ThreadLocal<ThreadState> OWNERS =
      new ThreadLocal<ThreadState>() {
        @Override
        protected ThreadState initialValue() {
          return new ThreadState();
        }
      };

  private ThreadStates() {}

  /** The calling thread's state, synchronised with the current rate and kill switch. */
  static ThreadState current() {
    return ownedOrClaimed(BY_ID[(int) Thread.currentThread().getId() & (SLOTS - 1)]);
  }

  /**
   * The slot's state if it is the calling thread's, else its own through {@link #claim}. Apart from
   * {@link #current} so that neither keeps the long id in a local: with it the lookup needed 7
   * slots of stack and locals, past what C1 gives a method it inlines, and C1 called it once per
   * invocation; split, each needs at most 4.
   */
  private static ThreadState ownedOrClaimed(ThreadState slot) {
    return slot.threadId == Thread.currentThread().getId() ? slot : claim();
  }

  /**
   * Empties the table, after {@link Probes#generation} moved: every thread's next lookup
   * resynchronises. A thread claiming a slot at the same moment may put back a state that has not
   * seen the change; it sees it at its next draw, which reads the rate and the switch afresh.
   */
  static void forgetAll() {
    for (int i = 0; i < SLOTS; i++) {
      BY_ID[i] = NOBODY;
    }
  }

  private static ThreadState[] emptyTable() {
    ThreadState[] table = new ThreadState[SLOTS];
    for (int i = 0; i < SLOTS; i++) {
      table[i] = NOBODY;
    }
    return table;
  }

  /** The calling thread's own state, without the table, for the agent's controls. */
  static ThreadState owned() {
    return OWNERS.get();
  }

  private static ThreadState claim() {
    Thread thread = Thread.currentThread();
    ThreadState s = OWNERS.get();
    if (s.generation != Probes.generation) {
      Sampler.resync(s);
    }
    // A plain store: another thread reading the slot sees the final id field set, finds it is not
    // its own and takes the slow path.
    BY_ID[slot(thread)] = s;
    return s;
  }

  private static int slot(Thread thread) {
    return (int) thread.getId() & (SLOTS - 1);
  }
}
