package dev.whyslow.agent.bootstrap;

import java.lang.ref.WeakReference;

/**
 * Finds the calling thread's {@link ThreadState}, once per instrumented method invocation, so it
 * must cost less than a {@link ThreadLocal} lookup. A direct-mapped table indexed by thread id
 * answers most lookups with a few loads; the {@code ThreadLocal} stays the owner of each state and
 * answers when the table slot holds another thread's.
 *
 * <p>A slot is claimed by whichever thread looked up last through the slow path, so two busy
 * threads whose ids collide take turns in the slow path but never share a state: a slot's state is
 * used only by the thread it names. The table names its threads weakly, so it keeps no dead thread
 * (nor its context class loader) alive; it does keep up to {@link #SLOTS} states of dead threads
 * until their slots are claimed again, which bounds what it holds.
 */
final class ThreadStates {
  /** Slots in the table: thread ids are dense, so this covers the first thousands of threads. */
  static final int SLOTS = 4096;

  private static final ThreadState[] BY_ID = new ThreadState[SLOTS];

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
    Thread thread = Thread.currentThread();
    ThreadState s = BY_ID[slot(thread)];
    // owner.get(), not refersTo: on JDK 17 refersTo is a native call, not an intrinsic, and cost
    // this lookup twice what the ThreadLocal it replaces did.
    if (s == null || s.owner.get() != thread || s.generation != Probes.generation) {
      s = claim(thread);
    }
    return s;
  }

  /** The calling thread's state without the generation check, for the agent's controls. */
  static ThreadState owned() {
    return OWNERS.get();
  }

  private static ThreadState claim(Thread thread) {
    ThreadState s = OWNERS.get();
    if (s.generation != Probes.generation) {
      Sampler.resync(s);
    }
    // A plain store: another thread reading the slot sees the final owner field set, finds it is
    // not the owner and takes the slow path.
    BY_ID[slot(thread)] = s;
    return s;
  }

  private static int slot(Thread thread) {
    return (int) thread.getId() & (SLOTS - 1);
  }

  /** The owner reference a new state keeps. */
  static WeakReference<Thread> ownerOfCaller() {
    return new WeakReference<>(Thread.currentThread());
  }
}
